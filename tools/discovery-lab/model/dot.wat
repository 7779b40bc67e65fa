;; Dot products of a query with rows of float32 numbers, for the vector index's two stages.
;;
;; The second stage's sums (dotListed) are those of the plain loop, to the bit: each product of two
;; float32 numbers is exact in float64, and the four lanes add up coordinates 0, 1, 2 and 3 (mod 4)
;; in float64 in the same order, then (((s0 + s1) + s2) + s3). The first stage (coarseRows) only
;; picks whom the second scores, so it sums in float32, four products per instruction.
;;
;; Addresses are byte offsets into the imported memory. Built by scripts/build-wasm.mjs.
(module
  (import "env" "memory" (memory 1))

  ;; The dot product of the query's first $n numbers with the $n numbers at $row.
  (func $dot (param $query i32) (param $row i32) (param $n i32) (result f64)
    (local $low v128) (local $high v128) (local $i i32) (local $whole i32) (local $end i32)
    (local $s0 f64)
    (local.set $whole (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2)))
    (local.set $end (i32.shl (local.get $n) (i32.const 2)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $whole)))
        ;; Coordinates i and i + 1 into $low, i + 2 and i + 3 into $high.
        (local.set $low
          (f64x2.add (local.get $low)
            (f64x2.mul
              (f64x2.promote_low_f32x4
                (v128.load64_zero (i32.add (local.get $query) (local.get $i))))
              (f64x2.promote_low_f32x4
                (v128.load64_zero (i32.add (local.get $row) (local.get $i)))))))
        (local.set $high
          (f64x2.add (local.get $high)
            (f64x2.mul
              (f64x2.promote_low_f32x4
                (v128.load64_zero offset=8 (i32.add (local.get $query) (local.get $i))))
              (f64x2.promote_low_f32x4
                (v128.load64_zero offset=8 (i32.add (local.get $row) (local.get $i)))))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $next)))
    (local.set $s0 (f64x2.extract_lane 0 (local.get $low)))
    ;; The coordinates past the last whole four go to the first sum, as in the plain loop.
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $s0
          (f64.add (local.get $s0)
            (f64.mul
              (f64.promote_f32 (f32.load (i32.add (local.get $query) (local.get $i))))
              (f64.promote_f32 (f32.load (i32.add (local.get $row) (local.get $i)))))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $next)))
    (f64.add
      (f64.add
        (f64.add (local.get $s0) (f64x2.extract_lane 1 (local.get $low)))
        (f64x2.extract_lane 0 (local.get $high)))
      (f64x2.extract_lane 1 (local.get $high))))

  ;; The dot product of the query's first $n numbers with the $n numbers at $row, in float32.
  (func $dot32 (param $query i32) (param $row i32) (param $n i32) (result f32)
    (local $sums v128) (local $i i32) (local $whole i32) (local $end i32) (local $sum f32)
    (local.set $whole (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2)))
    (local.set $end (i32.shl (local.get $n) (i32.const 2)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $whole)))
        (local.set $sums
          (f32x4.add (local.get $sums)
            (f32x4.mul
              (v128.load (i32.add (local.get $query) (local.get $i)))
              (v128.load (i32.add (local.get $row) (local.get $i))))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $next)))
    (local.set $sum
      (f32.add
        (f32.add (f32x4.extract_lane 0 (local.get $sums)) (f32x4.extract_lane 1 (local.get $sums)))
        (f32.add (f32x4.extract_lane 2 (local.get $sums)) (f32x4.extract_lane 3 (local.get $sums)))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $sum
          (f32.add (local.get $sum)
            (f32.mul
              (f32.load (i32.add (local.get $query) (local.get $i)))
              (f32.load (i32.add (local.get $row) (local.get $i))))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $next)))
    (local.get $sum))

  ;; out[r] = the query's dot product with row r in float32, for rows 0 to $count - 1 of $n numbers.
  (func (export "coarseRows")
    (param $query i32) (param $rows i32) (param $n i32) (param $count i32) (param $out i32)
    (local $r i32) (local $stride i32)
    (local.set $stride (i32.shl (local.get $n) (i32.const 2)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $r) (local.get $count)))
        (f64.store
          (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 3)))
          (f64.promote_f32 (call $dot32 (local.get $query) (local.get $rows) (local.get $n))))
        (local.set $rows (i32.add (local.get $rows) (local.get $stride)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $next))))

  ;; out[j] = the query's dot product with row listed[j], for j from 0 to $count - 1.
  (func (export "dotListed")
    (param $query i32) (param $rows i32) (param $n i32)
    (param $listed i32) (param $count i32) (param $out i32)
    (local $j i32) (local $stride i32)
    (local.set $stride (i32.shl (local.get $n) (i32.const 2)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $j) (local.get $count)))
        (f64.store
          (i32.add (local.get $out) (i32.shl (local.get $j) (i32.const 3)))
          (call $dot
            (local.get $query)
            (i32.add
              (local.get $rows)
              (i32.mul
                (i32.load (i32.add (local.get $listed) (i32.shl (local.get $j) (i32.const 2))))
                (local.get $stride)))
            (local.get $n)))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $next)))))
