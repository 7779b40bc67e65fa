import { strict as assert } from 'node:assert';
import { MAX_SCROLL_HEIGHT, pagesCovering, rowWindow, scrollTopFor } from '@shared/auditMessages';

const geometry = { viewportHeight: 440, rowHeight: 22 };

describe('virtual table window arithmetic', () => {
  it('renders the visible rows plus the overscan, and places them where they scroll', () => {
    const w = rowWindow({ ...geometry, total: 100_000, scrollTop: 22 * 5000 + 7, overscan: 10 });
    assert.equal(w.first, 5000);
    assert.equal(w.start, 4990);
    assert.equal(w.end, 5000 + 21 + 10);
    assert.equal(w.top, 22 * 4990);
    assert.equal(w.scrollHeight, 2_200_000);
  });

  it('is bounded by the start and the end of the list', () => {
    assert.deepEqual(rowWindow({ ...geometry, total: 0, scrollTop: 0, overscan: 10 }), {
      start: 0,
      end: 0,
      first: 0,
      top: 0,
      scrollHeight: 0,
    });
    const top = rowWindow({ ...geometry, total: 5, scrollTop: 300, overscan: 10 });
    assert.deepEqual([top.start, top.end, top.first, top.top], [0, 5, 0, 0]);
    const end = rowWindow({ ...geometry, total: 1000, scrollTop: 1e9, overscan: 10 });
    assert.equal(end.end, 1000);
    assert.equal(end.first, 1000 - 20);
  });

  it('keeps the DOM bounded whatever the list size', () => {
    for (const total of [100, 100_000, 10_000_000]) {
      const w = rowWindow({ ...geometry, total, scrollTop: 1234567, overscan: 10 });
      assert.ok(w.end - w.start <= 20 + 1 + 20, `${total}: ${w.end - w.start} rows`);
    }
  });

  it('scales the scroll range past the browser height limit and still reaches every row', () => {
    const total = 10_000_000;
    const last = scrollTopFor(total - 1, 'end', { ...geometry, total });
    assert.ok(last <= MAX_SCROLL_HEIGHT - geometry.viewportHeight + 1e-6);
    const end = rowWindow({ ...geometry, total, scrollTop: last, overscan: 0 });
    assert.equal(end.end, total);
    assert.equal(end.scrollHeight, MAX_SCROLL_HEIGHT);
    for (const index of [0, 1, 12345, 5_000_000, 9_999_979]) {
      const w = rowWindow({
        ...geometry,
        total,
        scrollTop: scrollTopFor(index, 'start', { ...geometry, total }),
        overscan: 0,
      });
      assert.equal(w.first, index);
      assert.ok(
        Math.abs(w.top - scrollTopFor(index, 'start', { ...geometry, total })) < 1e-3,
        'the first row is drawn at the top of the viewport',
      );
    }
  });

  it('scrolls a row into view at the top or at the bottom', () => {
    assert.equal(scrollTopFor(100, 'start', { ...geometry, total: 1000 }), 2200);
    assert.equal(scrollTopFor(100, 'end', { ...geometry, total: 1000 }), 101 * 22 - 440);
    assert.equal(scrollTopFor(3, 'end', { ...geometry, total: 1000 }), 0);
    assert.equal(scrollTopFor(999, 'start', { ...geometry, total: 1000 }), 1000 * 22 - 440);
  });

  it('names the pages that cover a range', () => {
    assert.deepEqual(pagesCovering(0, 0), []);
    assert.deepEqual(pagesCovering(0, 1), [0]);
    assert.deepEqual(pagesCovering(99, 101), [0, 1]);
    assert.deepEqual(pagesCovering(4990, 5031), [49, 50]);
    assert.deepEqual(pagesCovering(0, 250, 50), [0, 1, 2, 3, 4]);
  });
});
