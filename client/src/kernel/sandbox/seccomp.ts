/**
 * The seccomp filter bubblewrap loads into a sandboxed server on Linux (`bwrap --seccomp FD`): a
 * classic BPF program (seccomp(2), "SECCOMP_SET_MODE_FILTER") that answers EPERM to the system calls
 * a tool server has no use for and an attacker has: the kernel keyring (keyctl, add_key,
 * request_key), eBPF, perf events, userfaultfd, kernel modules, kexec, mounts, namespaces it could
 * join, reboot and swap, and the terminal-injection ioctls (TIOCSTI, TIOCLINUX). Docker's default
 * profile refuses the same. On x86-64 the x32 system-call numbers are refused too, so the same call
 * cannot come in by its other number. Only x86-64 and arm64 have a table; elsewhere there is none.
 */

const LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JSET_K = 0x45; // BPF_JMP | BPF_JSET | BPF_K
const RET_K = 0x06; // BPF_RET | BPF_K
const RET_ALLOW = 0x7fff0000;
const RET_EPERM = 0x00050000 | 1;
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
/** The low 32 bits of args[1] (seccomp_data is little-endian on both architectures). */
const OFFSET_ARG1 = 24;
const X32_BIT = 0x40000000;
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;

interface ArchTable {
  audit: number;
  ioctl: number;
  x32: boolean;
  denied: number[];
}

/** System-call numbers from each architecture's unistd headers. */
const TABLES: Record<string, ArchTable> = {
  x64: {
    audit: 0xc000003e,
    ioctl: 16,
    x32: true,
    // keyctl add_key request_key bpf perf_event_open userfaultfd init_module finit_module
    // delete_module kexec_load kexec_file_load mount umount2 pivot_root setns reboot swapon
    // swapoff acct open_tree move_mount fsopen fsconfig fsmount fspick
    denied: [
      250, 248, 249, 321, 298, 323, 175, 313, 176, 246, 320, 165, 166, 155, 308, 169, 167, 168, 163,
      428, 429, 430, 431, 432, 433,
    ],
  },
  arm64: {
    audit: 0xc00000b7,
    ioctl: 29,
    x32: false,
    denied: [
      219, 217, 218, 280, 241, 282, 105, 273, 106, 104, 294, 40, 39, 41, 268, 142, 224, 225, 89,
      428, 429, 430, 431, 432, 433,
    ],
  },
};

type Instruction = [code: number, jt: number, jf: number, k: number];

function program(table: ArchTable): Instruction[] {
  const checks: Instruction[] = [];
  // Each check jumps to the last instruction (EPERM) when it matches; its distance is filled in below.
  const toDeny = (code: number, k: number): Instruction => [code, -1, 0, k];
  if (table.x32) checks.push(toDeny(JSET_K, X32_BIT));
  for (const nr of table.denied) checks.push(toDeny(JEQ_K, nr));
  const ioctl: Instruction[] = [
    [JEQ_K, 0, 3, table.ioctl],
    [LD_W_ABS, 0, 0, OFFSET_ARG1],
    toDeny(JEQ_K, TIOCSTI),
    toDeny(JEQ_K, TIOCLINUX),
  ];
  const body: Instruction[] = [
    [LD_W_ABS, 0, 0, OFFSET_ARCH],
    [JEQ_K, 1, 0, table.audit],
    [RET_K, 0, 0, RET_EPERM],
    [LD_W_ABS, 0, 0, OFFSET_NR],
    ...checks,
    ...ioctl,
    [RET_K, 0, 0, RET_ALLOW],
    [RET_K, 0, 0, RET_EPERM],
  ];
  const deny = body.length - 1;
  return body.map(([code, jt, jf, k], at) => [code, jt === -1 ? deny - at - 1 : jt, jf, k]);
}

/** The filter as `struct sock_filter[]` bytes for this process's architecture, or none. */
export function seccompFilter(arch: string = process.arch): Buffer | undefined {
  const table = TABLES[arch];
  if (!table) return undefined;
  const instructions = program(table);
  const bytes = Buffer.alloc(instructions.length * 8);
  instructions.forEach(([code, jt, jf, k], i) => {
    bytes.writeUInt16LE(code, i * 8);
    bytes.writeUInt8(jt, i * 8 + 2);
    bytes.writeUInt8(jf, i * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return bytes;
}
