/**
 * The fork server's per-run init on x86-64, in machine code (issue 27): what the slot loop's
 * Python init (python-slot-server.ts `_init`) does for the fork server, without a process of its
 * own to copy and without Python.
 *
 * The server calls {@link FORK_INIT_X86_64_SOURCE}'s `start_run(ctx)` through ctypes (keeping the
 * GIL, as its raw clone did). It saves the server's callee-saved registers and stack pointer in
 * `ctx`, then clones the run's init with the slot loop's namespace flags (fresh user, IPC, pid
 * and network namespaces, SIGCHLD at its end) plus CLONE_VM | CLONE_VFORK, on a stack of its own
 * (`ctx` + 64). The init shares the server's memory (no page table to copy, no copy-on-write
 * fault: the Python init's ~70 faults and its interpreter work per run were a quarter of a
 * run's CPU), and the server stays suspended in that clone until the init is gone (vfork: the
 * server is single-threaded, so nothing else runs on that memory meanwhile, and the init writes
 * only its own stack). The init, as the Python one did: closes every descriptor past 2 (its own
 * table: no CLONE_FILES), drops every capability its new user namespace gave it (capset with the
 * server's empty sets, `ctx` + 72 and + 80; if that fails it exits 121 before anything starts),
 * forks the program's process (a plain fork: a copy-on-write copy of the server's memory, as
 * before), then reaps children until the program's process ends and exits with its status (128 + n
 * for a death by signal n, as bwrap reports one); its end ends every process left in the
 * namespace. The program's process restores the saved registers and stack pointer and returns 0
 * from `start_run`: it goes on exactly where the server called it (its copy of the server's stack
 * is intact: the init ran on another stack), as after the raw clone. The server then returns the
 * init's pid and waits for it, as before. Exit 121 means the init failed (capset, fork, wait).
 *
 * Why this keeps every isolation property: the namespaces, the capability drop, the closed
 * descriptors, the pid-1 reaping and the exit status are the Python init's; the program's process
 * is still a fork (a copy) of the server and shares no memory with it. What is new is that the
 * init's memory is the server's own instead of a copy, so a program able to read or write its
 * init's memory (`/proc/<pid>/mem`, process_vm_readv, ptrace) would reach the live server, not a
 * copy: as before, the server's memory is not dumpable (PR_SET_DUMPABLE 0 before its loop, and
 * dumpability belongs to the memory, which init shares) and the program holds no capability in
 * the sandbox's user namespace, which owns that memory, so the kernel refuses all three
 * (python-slot-server.test.ts, "cannot read or write the memory of its namespace's init"). No
 * signal can run code in the init: the server installs no handler (SIGINT at its default, SIGPIPE
 * and SIGXFSZ ignored, every other signal at its default), the init inherits those dispositions,
 * and a pid namespace's init never gets a signal at its default from inside its namespace.
 *
 * Elsewhere than x86-64, or where the host refuses executable memory, the server keeps the slot
 * loop's Python init (`_prepare` answers None).
 * The bytes below are the assembly of {@link FORK_INIT_X86_64_SOURCE} (GNU as, `.intel_syntax
 * noprefix`; python-fork-init.test.ts assembles it again where `as` and `objcopy` are installed
 * and compares): no compiler is needed where the arena runs.
 */

/** The init's assembly source (GNU as, Intel syntax). `ctx`: 8-byte slots, see the comments. */
export const FORK_INIT_X86_64_SOURCE = `    .intel_syntax noprefix
    .text
    .globl start_run
# long start_run(long *ctx): ctx[0..6] the saved rsp, rbx, rbp, r12, r13, r14, r15;
# ctx[7] the clone flags, ctx[8] the init's stack top, ctx[9] the capset header, ctx[10] its data
start_run:
    mov [rdi], rsp
    mov [rdi+8], rbx
    mov [rdi+16], rbp
    mov [rdi+24], r12
    mov [rdi+32], r13
    mov [rdi+40], r14
    mov [rdi+48], r15
    mov r12, rdi
    mov eax, 56                # clone(flags, stack, 0, 0, 0)
    mov rdi, [r12+56]
    mov rsi, [r12+64]
    xor edx, edx
    xor r10d, r10d
    xor r8d, r8d
    syscall
    test rax, rax
    jz init
    mov r12, [r12+24]          # the server: the init's pid (it has ended), or -errno
    ret
init:                          # pid 1 of the run's namespaces, on its own stack
    sub rsp, 16
    mov eax, 436               # close_range(3, ~0U, 0)
    mov edi, 3
    mov esi, -1
    xor edx, edx
    syscall
    mov eax, 126               # capset(header, data): no capability at all
    mov rdi, [r12+72]
    mov rsi, [r12+80]
    syscall
    test rax, rax
    jnz fail
    mov eax, 56                # clone(SIGCHLD, 0, 0, 0, 0): a fork
    mov edi, 17
    xor esi, esi
    xor edx, edx
    xor r10d, r10d
    xor r8d, r8d
    syscall
    test rax, rax
    jz program
    js fail
    mov r13, rax
wait:
    mov eax, 61                # wait4(-1, &status, 0, NULL)
    mov rdi, -1
    mov rsi, rsp
    xor edx, edx
    xor r10d, r10d
    syscall
    cmp rax, r13
    je reaped
    cmp rax, -4                # EINTR
    je wait
    test rax, rax
    jns wait                   # another process of the namespace, reparented here
    jmp fail
reaped:
    mov eax, [rsp]
    mov edi, eax
    and edi, 0x7f
    jz exited
    add edi, 128               # killed by signal n: 128 + n
    jmp end
exited:
    shr eax, 8
    movzx edi, al
end:
    mov eax, 60                # exit(code)
    syscall
fail:
    mov edi, 121
    mov eax, 60
    syscall
program:                       # the program's process: start_run returns 0 where the server called it
    mov rsp, [r12]
    mov rbx, [r12+8]
    mov rbp, [r12+16]
    mov r13, [r12+32]
    mov r14, [r12+40]
    mov r15, [r12+48]
    mov r12, [r12+24]
    xor eax, eax
    ret
`;

/** {@link FORK_INIT_X86_64_SOURCE} assembled (hex). */
export const FORK_INIT_X86_64_HEX =
  '48892748895f0848896f104c8967184c896f204c8977284c897f304989fcb838000000498b7c2438498b74244031d24531d24531c00f05' +
  '4885c074064d8b642418c34883ec10b8b4010000bf03000000beffffffff31d20f05b87e000000498b7c2448498b7424500f054885c075' +
  '67b838000000bf1100000031f631d24531d24531c00f054885c07458784a4989c5b83d00000048c7c7ffffffff4889e631d24531d20f05' +
  '4c39e8740d4883f8fc74df4885c079daeb1f8b042489c783e77f740881c780000000eb06c1e8080fb6f8b83c0000000f05bf79000000b8' +
  '3c0000000f05498b2424498b5c2408498b6c24104d8b6c24204d8b7424284d8b7c24304d8b64241831c0c3';

/**
 * Python (for the fork server, after the slot loop's `_C` and `_CLONE_FLAGS` exist): `_machine_init(libc,
 * program)` answers the function that starts a run (the init's pid in the server; in the program's
 * process it calls `program()`, which never returns), or None where the init is not machine code
 * (not x86-64), or where the host refuses to map it: the code is mapped read and execute only
 * (written first, then mprotect), which a host denying executable memory (SELinux's `execmem`)
 * refuses; the slot loop's Python init then starts each run, as isolated, only slower.
 */
export const PYTHON_MACHINE_INIT = String.raw`
def _machine_init(libc, program):
    if posix.uname().machine != "x86_64":
        return None
    code = bytes.fromhex("${FORK_INIT_X86_64_HEX}")
    mmap = libc.mmap
    mmap.restype = ctypes.c_void_p
    mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long)
    mprotect = libc.mprotect
    mprotect.restype = ctypes.c_int
    mprotect.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    failed = ctypes.c_void_p(-1).value
    page = mmap(None, 4096, 3, 0x22, -1, 0)  # PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS
    stack = mmap(None, 65536, 3, 0x22, -1, 0)
    if page in (None, failed) or stack in (None, failed):
        return None
    ctypes.memmove(page, code, len(code))
    if mprotect(page, 4096, 5) != 0:  # PROT_READ | PROT_EXEC: never writable again
        return None  # a host that refuses executable memory (SELinux's execmem): the Python init
    ctx = (ctypes.c_uint64 * 12)()
    ctx[7] = _CLONE_FLAGS | 0x100 | 0x4000  # the slot loop's namespaces, CLONE_VM | CLONE_VFORK
    ctx[8] = stack + 65536
    ctx[9] = _C.header
    ctx[10] = _C.no_caps
    _C.machine_init = ctx  # kept alive with the server
    start_run = ctypes.PYFUNCTYPE(ctypes.c_long, ctypes.c_void_p)(page)  # keeps the GIL, as the raw clone did
    address = ctypes.addressof(ctx)
    def start():
        pid = start_run(address)
        if pid == 0:
            program()
        return pid
    return start
`;
