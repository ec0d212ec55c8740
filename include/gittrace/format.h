/*
 * gittrace trace format: the one definition the preload (writer) and the
 * analyzer (reader) share. Everything that crosses the file goes through the
 * types and helpers below.
 *
 * File layout
 * -----------
 * A trace file is a plain sequence of *blocks*, appended with O_APPEND by
 * every process of one traced run. Each block is two zstd frames:
 *
 *   1. a zstd skippable frame (magic GT_SKIPPABLE_MAGIC, 4-byte LE size)
 *      whose content is a struct gt_block_header (GT_BLOCK_HEADER_SIZE
 *      bytes, little-endian fields);
 *   2. one ordinary zstd frame (content checksum on) that decompresses to
 *      exactly header.raw_size bytes of *records*.
 *
 * Because headers are skippable frames, `zstd -t trace.zst` accepts a whole
 * trace and `zstd -dc trace.zst` prints the concatenated records. A reader
 * validates each block on its own; a torn last block (the writer was killed
 * or the disk filled) loses only that block.
 *
 * Blocks of one process image are numbered by header.seq from 0 without
 * gaps, so a reader can tell that a block is missing. Blocks of different
 * images interleave freely; within one image, blocks appear in seq order
 * and records within them in the order they were appended: the writer keeps
 * one stream per image, shared by its threads.
 *
 * Columns (since 2.0): a block's records are stored split by field, so
 * that the compressor sees like next to like (times beside times, sizes
 * beside sizes) rather than each call's fields interleaved. The raw bytes
 * are a directory, uv column count then each column's length (uv), followed
 * by the columns in enum gt_column order. GT_COL_RECORDS holds one entry
 * per record, in order: a CALL as a single token byte (GT_CALL_TOKEN), any
 * other record as in 1.x (tag, length, body). A CALL's fields are the next
 * entries of the other columns, taken in record order. A reader that knows
 * fewer columns than a block has ignores the extra ones (a later MINOR);
 * a block with fewer columns than its MAJOR has (GT_COL_COUNT_2 in 2.x,
 * GT_COL_COUNT_3 in 3.x, GT_COL_COUNT in 4.x) is corrupt. In 1.x blocks
 * the raw bytes are the records themselves, CALLs included (see CALL).
 *
 * Calls are appended after the real call returns. So when two threads race
 * on one address (thread A frees p, thread B's malloc returns p before A's
 * record is appended), the allocation can precede the free that made room
 * for it. A reader that matches frees to allocations (or munmaps to mmaps)
 * compares the free's start time with the allocation's end time: a free
 * that started before an allocation ended cannot be its free. A timed CALL
 * carries its start time and duration (end = start + duration); an untimed
 * one (2.0, see CALL) one time that is exact for this rule: the end of a
 * call that returns a block, the start of free.
 *
 * Records
 * -------
 * Every record is: tag (1 byte), body length (ULEB128), body. A reader skips
 * a record whose tag it does not know by its length, so new record types
 * only bump GT_FORMAT_MINOR. Changing an existing record bumps MAJOR; a
 * reader refuses a MAJOR it does not know.
 *
 * Integers in bodies are ULEB128 ("uv") unless said otherwise; signed values
 * are zigzag-encoded ULEB128 ("sv"); strings are uv length + bytes (no NUL).
 * A reader must accept trailing bytes at the end of a body it knows (a
 * future MINOR may append fields).
 *
 * Versions: 1.0 — first format. 1.1 — IMAGE clock_overhead_ns, END tracer_ns.
 * 1.2 — USAGE records after file maps and unmaps. 2.0 — columns; CALL as a
 * token, timed on a sample of calls (IMAGE timed_one_in), its time in the
 * block's unit (header time_shift, was reserved); free unwound no more
 * (its stack is its allocation's). 3.0 — addresses as references to the
 * block's recent ones or to its freed blocks by size class, new ones as
 * deltas in their own column (see "Addresses"); 2.0 readers cannot read
 * them, hence the MAJOR. 3.1 — in a block whose image has had one thread
 * (time_shift > 0), an untimed CALL has no time of its own (see CALL): the
 * writer reads the clock for timed calls only. A 3.0 reader still reads
 * 3.1 blocks, with those calls at the previous call's time. 4.0 — the
 * codes of blocks returned in a column of their own, and taken from any
 * depth of their class's list of freed blocks, new addresses in 16-byte
 * units (see "Addresses"); in a block of time_shift > 0, untimed CALLs
 * have no time entry. 4.1 — END reason signal: the process was killed by a
 * signal it had left at its default action, its records written first (a 4.0
 * reader names the reason unknown and takes the signal for an exit status).
 * 4.2 — USAGE tracer_ns: the tracer's own work around the reading; END
 * involuntary_switches. 4.3 — IMAGE page_cycle_ns.
 */
#ifndef GITTRACE_FORMAT_H
#define GITTRACE_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define GT_FORMAT_MAJOR 4
#define GT_FORMAT_MINOR 3

/* zstd reserves 0x184D2A50..0x184D2A5F for skippable frames; we take one. */
#define GT_SKIPPABLE_MAGIC	 0x184D2A5Du
#define GT_SKIPPABLE_PREFIX_SIZE 8 /* magic + frame size, both u32 LE */

/* "GTRB": gittrace block. */
#define GT_BLOCK_MAGIC 0x42525447u

/*
 * The content of the skippable frame in front of every block. Serialized
 * field by field, little-endian, with no padding (see gt_block_header_encode).
 */
struct gt_block_header {
	uint32_t magic;	     /* GT_BLOCK_MAGIC */
	uint16_t major;	     /* GT_FORMAT_MAJOR of the writer */
	uint16_t minor;	     /* GT_FORMAT_MINOR of the writer */
	uint64_t image_id;   /* random id of the process image that wrote it */
	uint32_t pid;	     /* that image's pid */
	uint32_t seq;	     /* block number within the image, from 0 */
	uint32_t frame_size; /* bytes of the zstd frame that follows */
	uint32_t raw_size;   /* bytes it decompresses to */
	uint32_t records;    /* records in the block */
	uint32_t time_shift; /* 2.x: CALL dts count 2^time_shift ns; 0 in 1.x */
	uint64_t base_ns;    /* CLOCK_MONOTONIC ns that the first call's
				timestamp delta is relative to */
};

#define GT_BLOCK_HEADER_SIZE 48

/* The largest time_shift a reader accepts (2^30 ns: about a second). */
#define GT_MAX_TIME_SHIFT 30

/* A block never decompresses to more than this: bounds a reader's memory. */
#define GT_MAX_RAW_SIZE (64u << 20)

/*
 * Record kinds, described once: GT_RECORDS lists them (enum gt_record_tag's
 * name, its value in the file, a lower-case name). For each of
 * GT_FIELD_RECORDS (all but CALL), GT_FIELDS_<NAME>(F) calls F(field,
 * encoding, label) for each field of its body, in file order. The writer's
 * encoders (gt_encode_<name>_body below), the reader's decoder and --dump
 * are generated from them. CALL, whose body depends on its function, is
 * described at GT_FNS instead. Encodings, besides those of CALL arguments
 * (see GT_FNS):
 *   ID     uv, an image id (shown as 16 hex digits)
 *   BYTES  str of raw bytes (shown in hex, "-" if empty)
 *   COUNT  uv, how many items the list field after it holds
 *   STRS   COUNT × str (the encoder takes them NUL-terminated, one after
 *          another)
 *   IPS    COUNT × uv, addresses (shown in hex)
 *   LATER  uv, appended by a later MINOR: a reader takes 0 when the body
 *          ends before it
 *   ORIGIN, END_REASON, DROP_REASON
 *          uv, a value of enum gt_origin, gt_end_reason, gt_drop_reason
 *          (shown by name, below)
 */
#define GT_RECORDS(R) GT_FIELD_RECORDS(R) R(CALL, 5, call)
#define GT_FIELD_RECORDS(R)                                                                        \
	R(IMAGE, 1, image)                                                                         \
	R(MODULE, 2, module)                                                                       \
	R(THREAD, 3, thread)                                                                       \
	R(STACK, 4, stack)                                                                         \
	R(END, 6, end)                                                                             \
	R(EXEC_FAILED, 7, exec_failed)                                                             \
	R(DROPPED, 8, dropped)                                                                     \
	R(USAGE, 9, usage)

/* Record tags. Explicit values: they are the file format. */
enum gt_record_tag {
#define GT_TAG_ENUM(NAME, value, name) GT_REC_##NAME = value,
	GT_RECORDS(GT_TAG_ENUM)
#undef GT_TAG_ENUM
};

/*
 * IMAGE: the first record of an image's first block. parent_image_id is
 * the image that forked this one (0 if none or unknown); stack_depth 0 is
 * counting mode; exe is the program's real path; env holds only the
 * allocator-relevant variables (MALLOC_*, GLIBC_TUNABLES, LD_PRELOAD,
 * GITTRACE_*, MIMALLOC_*, JEMALLOC_*), each cut at the writer's limit.
 * Since 1.1: clock_overhead_ns, the cost of one timestamp reading (the
 * median of back-to-back differences, measured at image start). A call's
 * duration spans about one reading besides the real call: a reader
 * subtracts it from every duration (not below 0).
 * Since 2.0: timed_one_in: a CALL marked GT_CALL_SAMPLED stands for this
 * many calls of its function in sums of time (0 in older traces, where
 * every call is timed).
 * Since 4.3: page_cycle_ns, what one page of anonymous memory given back
 * to the kernel (madvise MADV_DONTNEED) and written again costs this
 * machine: the least of a few rounds over 32 pages, measured in a run's
 * root image only (0 in the others, and where it could not be measured).
 */
#define GT_FIELDS_IMAGE(F)                                                                         \
	F(pid, U, "pid")                                                                           \
	F(ppid, U, "ppid")                                                                         \
	F(start_realtime_ns, U, "start_realtime_ns")                                               \
	F(start_mono_ns, U, "start_ns")                                                            \
	F(origin, ORIGIN, "origin")                                                                \
	F(parent_image_id, ID, "parent")                                                           \
	F(pointer_bits, U, "pointer_bits")                                                         \
	F(page_size, U, "page_size")                                                               \
	F(stack_depth, U, "stack_depth")                                                           \
	F(exe, T, "exe")                                                                           \
	F(cwd, T, "cwd")                                                                           \
	F(argc, COUNT, "argc")                                                                     \
	F(argv, STRS, "argv")                                                                      \
	F(envc, COUNT, "envc")                                                                     \
	F(env, STRS, "env")                                                                        \
	F(clock_overhead_ns, LATER, "clock_overhead_ns")                                           \
	F(timed_one_in, LATER, "timed_one_in")                                                     \
	F(page_cycle_ns, LATER, "page_cycle_ns")

/*
 * The timed_one_in libgittrace writes. A reader takes it for SAMPLED calls
 * of an image whose IMAGE record it did not see (a block missing).
 */
#define GT_TIMED_ONE_IN 16

/*
 * MODULE: one loaded module (ELF object). The whole map is written at image
 * start and again after every dlopen; a module whose range overlaps an
 * earlier one of the same image replaces it. base is the load bias
 * (address = base + ELF vaddr), size the end of the highest PT_LOAD
 * segment as an offset from base, path the main executable's real path
 * ("linux-vdso.so.1" for the vDSO), build_id possibly empty.
 */
#define GT_FIELDS_MODULE(F)                                                                        \
	F(base, P, "base") F(size, X, "size") F(path, T, "path") F(build_id, BYTES, "build_id")

/*
 * THREAD: the thread that makes the calls that follow, until the next
 * THREAD. serial 1 is the image's first thread, then in order of first call.
 */
#define GT_FIELDS_THREAD(F) F(serial, U, "serial") F(tid, U, "tid")

/*
 * STACK: a distinct call stack, defined once per image before its first
 * use. id from 1; ips innermost first, the tracer's own frames already
 * removed; an ip is a return address (the reader subtracts 1 to find the
 * call's line).
 */
#define GT_FIELDS_STACK(F) F(id, U, "id") F(depth, COUNT, "depth") F(ips, IPS, "ips")

/*
 * The deepest STACK a writer makes (GITTRACE_STACK_DEPTH at most). A reader
 * takes a deeper one for corruption: its walks of a stack's frames may
 * recurse per frame.
 */
#define GT_STACK_DEPTH_MAX 128

/*
 * CALL: one hooked call.
 * 2.x and later: a token in GT_COL_RECORDS (GT_CALL_TOKEN | fn, with
 * GT_CALL_TIMED, GT_CALL_SAMPLED and GT_CALL_STACK set as the call has
 * them); in GT_COL_TIME, sv dts (units of 2^header.time_shift ns since the
 * previous CALL of the block, or since header.base_ns for the block's first:
 * the writer uses µs-like units while its image has had one thread, where no
 * race can be, and ns once it has more); if timed, uv duration_ns of the
 * real call in GT_COL_DURATION; if it has a stack, uv stack id in
 * GT_COL_STACK; then the arguments of fn as GT_ARGS_<FN> lists them, each in
 * the column of its encoding (GT_COLUMN_OF_<ENC>; since 3.0, P as
 * "Addresses" below says). A timed call's time is its start. An untimed
 * call's time is when it took effect for the race rule above: the end of a
 * call that returns a block, the start of free. Since 3.1, in a block of
 * time_shift > 0, where no race can be, an untimed call's dts is 0 (since
 * 4.0 it has no GT_COL_TIME entry at all: a 0 for each of 15 in 16 calls
 * still cost 6% of a trace) and the call was not timed at all: a reader
 * places the untimed calls between two timed calls of the block evenly
 * between the end of the first (rounded down to the block's unit, as starts
 * are) and the start of the second; those before the block's first timed
 * call from header.base_ns, those after its last at that call's end. A
 * SAMPLED call is timed because it was drawn at random, 1 in IMAGE
 * timed_one_in calls of its function, and stands for that many in sums of
 * time; the writer times every call of realloc in blocks of ns (it frees and
 * allocates: the rule needs its start and its end), of the map functions
 * (few, and the verdict weighs each), and a thread's first calls (one-off
 * costs that a sample would scale up): timed but not SAMPLED, each stands
 * for itself. free is never unwound. A 2.x+ reader
 * cannot skip a CALL of a function it does not know (its arguments' columns
 * are unknown): new functions bump MAJOR.
 * 1.x: u8 fn (enum gt_fn), sv dts, uv duration_ns, uv stack id (0: no
 * stack), then the arguments of fn as GT_ARGS_<FN> lists them.
 */
#define GT_CALL_TOKEN	0x80u /* the rest: record tags, all below it */
#define GT_CALL_TIMED	0x40u
#define GT_CALL_STACK	0x20u
#define GT_CALL_SAMPLED 0x10u
#define GT_CALL_FN	0x0fu

/* The columns of a block (2.x: the first 7, 3.x: the first 8), in file order. */
enum gt_column {
	GT_COL_RECORDS, /* record entries: CALL tokens, other records whole */
	GT_COL_TIME,	/* CALL dts */
	GT_COL_DURATION,
	GT_COL_STACK,
	GT_COL_SIZE,	 /* CALL arguments encoded U */
	GT_COL_ADDR,	 /* P */
	GT_COL_OTHER,	 /* X, S and T */
	GT_COL_NEW_ADDR, /* 3.x: new addresses (see "Addresses") */
	GT_COL_RETURNED, /* 4.x: the P codes of blocks returned (see "Addresses") */
	GT_COL_COUNT,
};
/* The columns a 2.x block has: all but GT_COL_NEW_ADDR and later ones. */
#define GT_COL_COUNT_2 GT_COL_NEW_ADDR
/* The columns a 3.x block has: all but GT_COL_RETURNED. */
#define GT_COL_COUNT_3 GT_COL_RETURNED

/* The columns a block of a 2.x or later MAJOR has, at least. */
static inline unsigned gt_columns_of_major(unsigned major)
{
	return major >= 4 ? GT_COL_COUNT : major == 3 ? GT_COL_COUNT_3 : GT_COL_COUNT_2;
}

/* The column of a CALL argument, by its encoding (4.x: a block returned has GT_COL_RETURNED). */
#define GT_COLUMN_OF_U GT_COL_SIZE
#define GT_COLUMN_OF_P GT_COL_ADDR
#define GT_COLUMN_OF_X GT_COL_OTHER
#define GT_COLUMN_OF_S GT_COL_OTHER
#define GT_COLUMN_OF_T GT_COL_OTHER
/* The longest column directory a writer of GT_COL_COUNT columns puts in front of them. */
#define GT_COLUMN_DIRECTORY_MAX (GT_UV_MAX * (1 + GT_COL_COUNT))

/*
 * END: the image ends. status is the exit status, 0-255 as the parent's
 * wait sees it, or -1 if unknown (writers before 2026-12-06 wrote what
 * exit was given whole: 300 for 44, and -1 for 255); user_ns and
 * system_ns are the CPU of all threads of this image since it started
 * (getrusage(RUSAGE_SELF) minus its value at image start, because rusage
 * survives exec), maxrss_kib is the process's, minflt and majflt are since
 * image start; calls recorded, calls dropped (should be 0; see DROPPED),
 * threads seen.
 * Since 1.1: tracer_ns, an estimate of the time the tracer itself spent in
 * this image (recording a random sample of calls, timed, and scaled up;
 * every block written, timed). CPU time minus tracer_ns estimates the
 * program's own CPU time.
 * Since 4.2: involuntary_switches, the times the kernel took a CPU from the
 * image's threads for another's (rusage ru_nivcsw, since image start): on a
 * machine whose CPUs other work shares, calls hold waits for a CPU and run
 * slower after each switch.
 * More CALLs of the image may follow: the C library's clean-up after the
 * last finalizer, or (earlier tracers, which wrote END in their own
 * destructor) the frees of the libraries finalized after the tracer, a
 * block each. A reader keeps counting them.
 */
#define GT_FIELDS_END(F)                                                                           \
	F(reason, END_REASON, "reason")                                                            \
	F(status, S, "status")                                                                     \
	F(end_realtime_ns, U, "end_realtime_ns")                                                   \
	F(end_mono_ns, U, "end_ns")                                                                \
	F(user_ns, U, "user_ns")                                                                   \
	F(system_ns, U, "system_ns")                                                               \
	F(maxrss_kib, U, "maxrss_kib")                                                             \
	F(minflt, U, "minflt")                                                                     \
	F(majflt, U, "majflt")                                                                     \
	F(calls, U, "calls")                                                                       \
	F(dropped, U, "dropped")                                                                   \
	F(threads, U, "threads")                                                                   \
	F(tracer_ns, LATER, "tracer_ns")                                                           \
	F(involuntary_switches, LATER, "involuntary_switches")

/* EXEC_FAILED: an exec ended the image with reason EXEC, but failed; the image goes on. */
#define GT_FIELDS_EXEC_FAILED(F) F(err, S, "errno")

/*
 * DROPPED: count calls the tracer saw but could not record, for a reason.
 * libgittrace writes one (reason busy) before the next record after calls
 * that a signal handler made while its thread was inside the tracer; its
 * other drops (a record too big for an empty buffer, which its limits rule
 * out) it counts in END. A reader adds up the counts of every DROPPED.
 */
#define GT_FIELDS_DROPPED(F) F(count, U, "count") F(reason, DROP_REASON, "reason")

/*
 * USAGE (since 1.2): the calling thread's resource usage
 * (getrusage(RUSAGE_THREAD), since the thread started), read right after
 * the real call of the CALL it immediately follows. Written after an
 * mmap/mmap64 of a file and after a munmap, so that a reader can tell the
 * page faults and kernel time a mapped window cost while it was mapped.
 * Since 4.2: tracer_ns, the time from the end of the real call until the
 * tracer had read the usage and the map's path: system calls of its own
 * (getrusage, readlink) whose kernel time falls partly before the reading
 * and mostly after it. The period between two readings of a thread holds
 * about one such stretch: a reader takes the earlier reading's tracer_ns
 * off the period's kernel time.
 */
#define GT_FIELDS_USAGE(F)                                                                         \
	F(minflt, U, "minflt")                                                                     \
	F(majflt, U, "majflt")                                                                     \
	F(user_ns, U, "user_ns")                                                                   \
	F(system_ns, U, "system_ns")                                                               \
	F(tracer_ns, LATER, "tracer_ns")

/* How an image came to be. */
enum gt_origin {
	GT_ORIGIN_ROOT = 0, /* first traced process of the run */
	GT_ORIGIN_FORK = 1, /* fork of a traced image: parent_image_id set */
	GT_ORIGIN_EXEC = 2, /* started by exec or spawn inside the run */
};

enum gt_end_reason {
	GT_END_EXIT = 0,	    /* exit() / return from main (status if known) */
	GT_END_UNDERSCORE_EXIT = 1, /* _exit(), _Exit() or quick_exit(): status known */
	GT_END_EXEC = 2,	    /* about to exec; status -1 */
	GT_END_SIGNAL = 3,	    /* killed by a signal at its default action: its number (4.1) */
};

/*
 * The signals whose END the tracer writes (GT_END_SIGNAL, by their Linux
 * numbers: the catcher is Linux's): those that end a process at their
 * default action and come from outside it or from a limit. Not the ones a
 * failing program raises itself (SIGABRT, SIGSEGV, SIGBUS, ...): its
 * memory may be what failed, and writing from it could turn its death into
 * another. X(number, name without "SIG").
 */
#define GT_CAUGHT_SIGNALS(X)                                                                       \
	X(1, HUP)                                                                                  \
	X(2, INT)                                                                                  \
	X(3, QUIT)                                                                                 \
	X(10, USR1)                                                                                \
	X(12, USR2)                                                                                \
	X(13, PIPE)                                                                                \
	X(14, ALRM)                                                                                \
	X(15, TERM)                                                                                \
	X(24, XCPU)                                                                                \
	X(25, XFSZ)                                                                                \
	X(26, VTALRM)                                                                              \
	X(27, PROF)

enum gt_drop_reason {
	GT_DROP_NO_MEMORY = 0,	  /* the tracer could not get memory */
	GT_DROP_LOCK_TIMEOUT = 1, /* final flush could not take the lock */
	GT_DROP_BUSY = 2,	  /* made by a signal handler while its thread was in the tracer */
};

/* Names of the enums' values (reports, --dump); "unknown" for others. */
static const char *const gt_origin_names[] = {"root", "fork", "exec"};
static const char *const gt_end_reason_names[] = {"exit", "_exit", "exec", "signal"};
static const char *const gt_drop_reason_names[] = {"no-memory", "lock-timeout", "busy"};
#define GT_NAME_OF(names, v) ((v) < sizeof(names) / sizeof((names)[0]) ? (names)[v] : "unknown")

/*
 * Hooked functions and the arguments recorded after the common CALL fields,
 * described once: GT_FNS lists the functions (enum gt_fn's name, value,
 * the function's name), and GT_ARGS_<NAME>(A) calls A(field, encoding,
 * label) for each argument of that function's CALL, in file order. The
 * writer's encoders (gt_encode_<fn> below), the reader's decoder and
 * --dump are generated from them. Encodings:
 *   U  uv, a count or size (shown in decimal)
 *   P  uv, an address; 0 is NULL, MAP_FAILED is all ones (shown in hex); in
 *      3.x CALLs, a code ("Addresses")
 *   X  uv, flags (shown in hex)
 *   S  sv, a signed value (shown in decimal)
 *   T  str: uv length, then the bytes (no NUL)
 */
#define GT_FNS(X)                                                                                  \
	X(MALLOC, 0, malloc)                                                                       \
	X(CALLOC, 1, calloc)                                                                       \
	X(REALLOC, 2, realloc)                                                                     \
	X(REALLOCARRAY, 3, reallocarray)                                                           \
	X(FREE, 4, free)                                                                           \
	X(POSIX_MEMALIGN, 5, posix_memalign)                                                       \
	X(ALIGNED_ALLOC, 6, aligned_alloc)                                                         \
	X(MEMALIGN, 7, memalign)                                                                   \
	X(VALLOC, 8, valloc)                                                                       \
	X(PVALLOC, 9, pvalloc)                                                                     \
	X(MMAP, 10, mmap)                                                                          \
	X(MMAP64, 11, mmap64)                                                                      \
	X(MUNMAP, 12, munmap)                                                                      \
	X(MREMAP, 13, mremap)

#define GT_ARGS_MALLOC(A)  A(size, U, "size") A(result, P, "result")
#define GT_ARGS_CALLOC(A)  A(nmemb, U, "nmemb") A(size, U, "size") A(result, P, "result")
#define GT_ARGS_REALLOC(A) A(ptr, P, "ptr") A(size, U, "size") A(result, P, "result")
#define GT_ARGS_REALLOCARRAY(A)                                                                    \
	A(ptr, P, "ptr") A(nmemb, U, "nmemb") A(size, U, "size") A(result, P, "result")
#define GT_ARGS_FREE(A) A(ptr, P, "ptr")
/* ret: posix_memalign's return value (0 or an errno). */
#define GT_ARGS_POSIX_MEMALIGN(A)                                                                  \
	A(align, U, "align") A(size, U, "size") A(result, P, "result") A(ret, U, "ret")
#define GT_ARGS_ALIGNED_ALLOC(A) A(align, U, "align") A(size, U, "size") A(result, P, "result")
#define GT_ARGS_MEMALIGN(A)	 GT_ARGS_ALIGNED_ALLOC(A)
#define GT_ARGS_VALLOC(A)	 GT_ARGS_MALLOC(A)
#define GT_ARGS_PVALLOC(A)	 GT_ARGS_MALLOC(A)
/* path: of fd at the time of the call; empty if anonymous or unknown. */
#define GT_ARGS_MMAP(A)                                                                            \
	A(addr, P, "addr")                                                                         \
	A(len, U, "len")                                                                           \
	A(prot, X, "prot")                                                                         \
	A(flags, X, "flags")                                                                       \
	A(fd, S, "fd") A(offset, U, "offset") A(result, P, "result") A(path, T, "path")
#define GT_ARGS_MMAP64(A) GT_ARGS_MMAP(A)
/* sret: munmap's return value. */
#define GT_ARGS_MUNMAP(A) A(addr, P, "addr") A(len, U, "len") A(sret, S, "ret")
/* new_addr: only meaningful with MREMAP_FIXED. */
#define GT_ARGS_MREMAP(A)                                                                          \
	A(old_addr, P, "old_addr")                                                                 \
	A(old_len, U, "old_len")                                                                   \
	A(new_len, U, "new_len")                                                                   \
	A(flags, X, "flags") A(new_addr, P, "new_addr") A(result, P, "result")

enum gt_fn {
#define GT_FN_ENUM(NAME, value, name) GT_FN_##NAME = value,
	GT_FNS(GT_FN_ENUM)
#undef GT_FN_ENUM
		GT_FN_COUNT = 14,
};

/* Names for reports and diagnostics, indexed by enum gt_fn. */
static const char *const gt_fn_names[GT_FN_COUNT] = {
#define GT_FN_NAME(NAME, value, name) [value] = #name,
	GT_FNS(GT_FN_NAME)
#undef GT_FN_NAME
};

/*
 * Addresses (3.x and later). Most pointers a program frees were returned
 * by a recent allocation, and most blocks an allocator returns were freed
 * recently: written whole, each address took 6 or 7 bytes that the
 * compressor found again only in part (in 2.0, addresses were 61% of a
 * trace). So each P argument of a CALL is one uv code:
 *   0      the address 0 (NULL);
 *   1      a new address: its difference from the block's previous new
 *          address (from 0 for the first) is the next entry of
 *          GT_COL_NEW_ADDR: in 3.x an sv; in 4.x, as blocks and maps are
 *          16-byte aligned, uv zigzag(difference / 16) << 1 when the
 *          difference is a multiple of 16, else uv 1 then the sv;
 *   2 + j  for a block returned (below) only, 0 <= j < the block's reach:
 *          the block its size class's list of freed blocks holds j-th from
 *          its last end (0 the last given back), which it leaves;
 *   a + 1 + reach for a block returned, a + 2 for any other address: the
 *          same address as the a-th most recent address of the block,
 *          1 <= a <= GT_ADDR_WINDOW.
 * The reach is 1 in 3.x blocks (only a list's last block is taken) and
 * GT_ADDR_FREED_DEPTH in 4.x; the lists hold GT_ADDR_FREED_DEPTH_3 and
 * GT_ADDR_FREED_DEPTH blocks. In 4.x the codes of blocks returned are the
 * entries of GT_COL_RETURNED, those of other addresses of GT_COL_ADDR: the
 * two mix small list positions with reference distances, and each alone
 * compresses better. In 3.x all are in GT_COL_ADDR.
 * Every address but NULL counts in the block's history, in the order of
 * the block's CALLs and of each CALL's arguments.
 *
 * In a CALL of the malloc family (gt_fn_is_heap) a `result` is a block
 * returned, of the product of the call's `size` and `nmemb` bytes, and a
 * `ptr` a block given back. Allocators hand out first the block freed last
 * among those of its size class (glibc's tcache and fast bins are LIFO per
 * 16-byte class; once a tcache bin is full, older blocks come from the fast
 * bin behind it: a few places down the list), so each block of the history
 * has a class: that of its bytes (gt_addr_class) where it was returned;
 * else that of the address it refers to (0 when new). A block given back
 * whose code refers to one of class c becomes the last of c's list
 * (struct gt_addr_freed).
 *
 * A reference never reaches into another block: every block decodes on
 * its own, history and lists starting empty. Whether an address is written
 * new, as a reference or from its list is the writer's choice (it may
 * forget what it has seen); a reader decodes each alike. In 2.x blocks
 * each P is a uv, the address whole.
 */
#define GT_ADDR_WINDOW	   4096u /* a power of 2 */
#define GT_ADDR_NULL	   0u
#define GT_ADDR_NEW	   1u
#define GT_ADDR_FROM_FREED 2u /* + j */
/* A reference a back: to any address but a block returned; to one in 4.x. */
#define GT_ADDR_REF(a)		((uint64_t)(a) + 2)
#define GT_ADDR_RETURNED_REF(a) ((uint64_t)(a) + 1 + GT_ADDR_FREED_DEPTH)

static inline int gt_fn_is_heap(unsigned fn)
{
	return fn < GT_FN_MMAP;
}

/* What a P argument is to the heap, by the argument's name (heap calls only). */
enum gt_addr_role { GT_ADDR_PLAIN, GT_ADDR_RETURNED, GT_ADDR_GIVEN_BACK };
#define GT_ADDR_ROLE_ptr      GT_ADDR_GIVEN_BACK
#define GT_ADDR_ROLE_result   GT_ADDR_RETURNED
#define GT_ADDR_ROLE_addr     GT_ADDR_PLAIN
#define GT_ADDR_ROLE_old_addr GT_ADDR_PLAIN
#define GT_ADDR_ROLE_new_addr GT_ADDR_PLAIN
/* The factor a U argument is of a block's bytes, by the argument's name. */
#define GT_ADDR_BYTES_size(v)	 (v)
#define GT_ADDR_BYTES_nmemb(v)	 (v)
#define GT_ADDR_BYTES_align(v)	 1
#define GT_ADDR_BYTES_ret(v)	 1
#define GT_ADDR_BYTES_len(v)	 1
#define GT_ADDR_BYTES_offset(v)	 1
#define GT_ADDR_BYTES_old_len(v) 1
#define GT_ADDR_BYTES_new_len(v) 1

/*
 * The size class of a block of bytes: glibc's chunk of it (8 bytes of
 * header, 16-byte steps, 32 at least) in 16-byte units; 0 (none) above
 * GT_ADDR_CLASS_MAX_BYTES, where allocators map blocks of their own.
 */
#define GT_ADDR_CLASS_MAX_BYTES (64u << 10)
static inline unsigned gt_addr_class(uint64_t bytes)
{
	if (bytes > GT_ADDR_CLASS_MAX_BYTES)
		return 0;
	uint64_t chunk = (bytes + 8 + 15) & ~(uint64_t)15;
	return (unsigned)((chunk < 32 ? 32 : chunk) / 16);
}

/*
 * The block's lists of freed blocks: GT_ADDR_FREED_LISTS of them, one
 * class each at a time (class % GT_ADDR_FREED_LISTS picks the list; a
 * block of another class given back starts it afresh), each the last
 * `depth` blocks given back and not taken since, the last at slot `last`
 * and the ones before it at the slots below (modulo GT_ADDR_FREED_DEPTH).
 */
#define GT_ADDR_FREED_LISTS   256u
#define GT_ADDR_FREED_DEPTH   64u /* a power of 2; 4.x */
#define GT_ADDR_FREED_DEPTH_3 8u
struct gt_addr_freed {
	unsigned depth; /* blocks a list holds: 8 in 3.x, 64 in 4.x */
	unsigned reach; /* list positions a code can take: 1 in 3.x, 64 in 4.x */
	/*
	 * The lists' heads apart from their blocks: a block's start empties
	 * the 1 KB of heads only, where clearing the 130 KB of blocks cost
	 * a short process 33 page faults and each block a memset.
	 */
	struct gt_addr_freed_list {
		uint16_t cls;
		uint8_t n, last; /* blocks held; the slot of the last */
	} list[GT_ADDR_FREED_LISTS];
	uint64_t addr[GT_ADDR_FREED_LISTS][GT_ADDR_FREED_DEPTH]; /* list[i]'s in addr[i] */
};

/* Empties the lists, for a block of the given MAJOR (3 or later). */
static inline void gt_addr_freed_reset(struct gt_addr_freed *f, unsigned major)
{
	memset(f->list, 0, sizeof(f->list));
	f->depth = major == 3 ? GT_ADDR_FREED_DEPTH_3 : GT_ADDR_FREED_DEPTH;
	f->reach = major == 3 ? 1 : GT_ADDR_FREED_DEPTH;
}

/* The blocks of list l of f. */
static inline uint64_t *gt_addr_freed_blocks(struct gt_addr_freed *f,
					     const struct gt_addr_freed_list *l)
{
	return f->addr[l - f->list];
}

static inline void gt_addr_freed_push(struct gt_addr_freed *f, unsigned cls, uint64_t addr)
{
	struct gt_addr_freed_list *l = &f->list[cls % GT_ADDR_FREED_LISTS];
	if (l->cls != cls) {
		l->cls = (uint16_t)cls;
		l->n = 0;
	}
	l->last = (uint8_t)((l->last + 1) % GT_ADDR_FREED_DEPTH);
	gt_addr_freed_blocks(f, l)[l->last] = addr;
	if (l->n < f->depth)
		l->n++;
}

/* Class cls's list, if it holds blocks of that class; else NULL. */
static inline struct gt_addr_freed_list *gt_addr_freed_list(struct gt_addr_freed *f, unsigned cls)
{
	struct gt_addr_freed_list *l = &f->list[cls % GT_ADDR_FREED_LISTS];
	return cls && l->cls == cls ? l : NULL;
}

/* The block j places from the last end of f's list l (j < l->n). */
static inline uint64_t gt_addr_freed_at(struct gt_addr_freed *f, const struct gt_addr_freed_list *l,
					unsigned j)
{
	return gt_addr_freed_blocks(f, l)[(l->last - j) % GT_ADDR_FREED_DEPTH];
}

/* Takes the block j places from the last end off f's list l (j < l->n). */
static inline void gt_addr_freed_take(struct gt_addr_freed *f, struct gt_addr_freed_list *l,
				      unsigned j)
{
	uint64_t *addr = gt_addr_freed_blocks(f, l);
	for (; j > 0; j--)
		addr[(l->last - j) % GT_ADDR_FREED_DEPTH] =
			addr[(l->last - j + 1) % GT_ADDR_FREED_DEPTH];
	l->last = (uint8_t)((l->last + GT_ADDR_FREED_DEPTH - 1) % GT_ADDR_FREED_DEPTH);
	l->n--;
}

/*
 * The class an address gets in the history: a block returned, that of its
 * bytes; else that of the address it refers to (referred_cls, 0 if none).
 */
static inline unsigned gt_addr_class_of(enum gt_addr_role role, uint64_t bytes,
					unsigned referred_cls)
{
	return role == GT_ADDR_RETURNED ? gt_addr_class(bytes) : referred_cls;
}

/* The code of a reference a addresses back, as an argument of the given role. */
static inline uint64_t gt_addr_ref(const struct gt_addr_freed *f, enum gt_addr_role role,
				   uint64_t a)
{
	return a + (role == GT_ADDR_RETURNED ? 1 + f->reach : 2);
}

/* The block's addresses so far, as a reader follows them. */
struct gt_addr_history {
	struct {
		uint64_t addr;
		unsigned cls;
	} recent[GT_ADDR_WINDOW]; /* the n-th address at n % GT_ADDR_WINDOW */
	uint64_t n;		  /* addresses but NULLs so far */
	uint64_t last_new;
	struct gt_addr_freed freed;
};

/* Forgets the addresses: a block of the given MAJOR (3 or later) starts. */
static inline void gt_addr_history_reset(struct gt_addr_history *h, unsigned major)
{
	h->n = 0;
	h->last_new = 0;
	gt_addr_freed_reset(&h->freed, major);
}

/*
 * Sets *addr to the address code stands for, as an argument of the given
 * role (GT_ADDR_PLAIN outside heap calls) in a call of bytes; delta is the
 * next entry of GT_COL_NEW_ADDR when code is GT_ADDR_NEW (unused
 * otherwise). Returns 0 if code refers to what the block has not had.
 */
static inline int gt_addr_decode(struct gt_addr_history *h, uint64_t code, int64_t delta,
				 enum gt_addr_role role, uint64_t bytes, uint64_t *addr)
{
	unsigned referred_cls = 0;
	if (code == GT_ADDR_NULL) {
		*addr = 0;
		return 1;
	}
	if (code == GT_ADDR_NEW) {
		h->last_new += (uint64_t)delta;
		*addr = h->last_new;
		if (!*addr)
			return 0; /* NULL has a code of its own */
	} else if (code < gt_addr_ref(&h->freed, role, 1)) {
		uint64_t j = code - GT_ADDR_FROM_FREED;
		struct gt_addr_freed_list *l = gt_addr_freed_list(&h->freed, gt_addr_class(bytes));
		if (role != GT_ADDR_RETURNED || !l || j >= l->n)
			return 0;
		*addr = gt_addr_freed_at(&h->freed, l, (unsigned)j);
		gt_addr_freed_take(&h->freed, l, (unsigned)j);
	} else {
		uint64_t a = code - gt_addr_ref(&h->freed, role, 0);
		if (a > GT_ADDR_WINDOW || a > h->n)
			return 0;
		*addr = h->recent[(h->n - a) % GT_ADDR_WINDOW].addr;
		referred_cls = h->recent[(h->n - a) % GT_ADDR_WINDOW].cls;
		if (role == GT_ADDR_GIVEN_BACK && referred_cls)
			gt_addr_freed_push(&h->freed, referred_cls, *addr);
	}
	h->recent[h->n % GT_ADDR_WINDOW].addr = *addr;
	h->recent[h->n++ % GT_ADDR_WINDOW].cls = gt_addr_class_of(role, bytes, referred_cls);
	return 1;
}

/* ---- encoding helpers (writer side) -------------------------------- */

/* Longest ULEB128 of a 64-bit value. */
#define GT_UV_MAX 10

/* Writes v as ULEB128 at p; returns the byte after it. p needs GT_UV_MAX. */
static inline uint8_t *gt_put_uv(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

static inline uint64_t gt_zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t gt_unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static inline uint8_t *gt_put_sv(uint8_t *p, int64_t v)
{
	return gt_put_uv(p, gt_zigzag(v));
}

/* A new address's entry of GT_COL_NEW_ADDR in 4.x ("Addresses"); p needs 2 × GT_UV_MAX. */
static inline uint8_t *gt_put_new_addr(uint8_t *p, int64_t delta)
{
	if (delta % 16)
		return gt_put_sv(gt_put_uv(p, 1), delta);
	return gt_put_uv(p, gt_zigzag(delta / 16) << 1);
}

/*
 * Encoders generated from the tables: gt_encode_<name>_body(p, fields...)
 * writes a record's body as GT_FIELDS_<NAME> lists it at p and returns the
 * byte after it; gt_encode_<fn>(args, ...) a CALL's arguments as
 * GT_ARGS_<FN> lists them, into their columns (struct gt_call_args, below).
 * Parameters by encoding: U, P, X, ID, COUNT, LATER and the enums are
 * uint64_t, S int64_t, T and BYTES a pointer and a length (field,
 * field_len), STRS the COUNT strings NUL-terminated one after another, IPS
 * an array of COUNT addresses. For a record body, the caller bounds what
 * its strings and lists take.
 */
#define GT_CALL_ARGS_MAX	    (8 * GT_UV_MAX)
#define GT_PARAM_U(field)	    , uint64_t field
#define GT_PARAM_P(field)	    , uint64_t field
#define GT_PARAM_X(field)	    , uint64_t field
#define GT_PARAM_S(field)	    , int64_t field
#define GT_PARAM_T(field)	    , const char *field, size_t field##_len
#define GT_PARAM_ID(field)	    , uint64_t field
#define GT_PARAM_BYTES(field)	    , const void *field, size_t field##_len
#define GT_PARAM_COUNT(field)	    , uint64_t field
#define GT_PARAM_STRS(field)	    , const char *field
#define GT_PARAM_IPS(field)	    , const uintptr_t *field
#define GT_PARAM_LATER(field)	    , uint64_t field
#define GT_PARAM_ORIGIN(field)	    , uint64_t field
#define GT_PARAM_END_REASON(field)  , uint64_t field
#define GT_PARAM_DROP_REASON(field) , uint64_t field
#define GT_PUT_U(field)		    p = gt_put_uv(p, field);
#define GT_PUT_P(field)		    p = gt_put_uv(p, field);
#define GT_PUT_X(field)		    p = gt_put_uv(p, field);
#define GT_PUT_S(field)		    p = gt_put_sv(p, field);
#define GT_PUT_T(field)		    p = gt_put_bytes(p, field, field##_len);
#define GT_PUT_ID(field)	    p = gt_put_uv(p, field);
#define GT_PUT_BYTES(field)	    p = gt_put_bytes(p, field, field##_len);
#define GT_PUT_COUNT(field)                                                                        \
	p = gt_put_uv(p, field);                                                                   \
	n = field;
#define GT_PUT_STRS(field)                                                                         \
	for (uint64_t i = 0; i < n; i++) {                                                         \
		size_t len = strlen(field);                                                        \
		p = gt_put_bytes(p, field, len);                                                   \
		field += len + 1;                                                                  \
	}
#define GT_PUT_IPS(field)                                                                          \
	for (uint64_t i = 0; i < n; i++)                                                           \
		p = gt_put_uv(p, field[i]);
#define GT_PUT_LATER(field)	    p = gt_put_uv(p, field);
#define GT_PUT_ORIGIN(field)	    p = gt_put_uv(p, field);
#define GT_PUT_END_REASON(field)    p = gt_put_uv(p, field);
#define GT_PUT_DROP_REASON(field)   p = gt_put_uv(p, field);
#define GT_PARAM(field, enc, label) GT_PARAM_##enc(field)
#define GT_PUT(field, enc, label)   GT_PUT_##enc(field)

/* A str: uv length, then the bytes. */
static inline uint8_t *gt_put_bytes(uint8_t *p, const void *bytes, size_t len)
{
	p = gt_put_uv(p, len);
	memcpy(p, bytes, len);
	return p + len;
}

/*
 * A CALL's arguments as the writer encodes them: at[c] is where the next
 * byte of column c goes (GT_COLUMN_OF_U, _X, _S and _T); gt_encode_<fn>
 * (&args, ...) moves them on. Each column needs GT_CALL_ARGS_MAX bytes,
 * GT_COL_OTHER also the length of any T argument. The P arguments, whose
 * codes depend on the addresses before them in the block ("Addresses"),
 * are kept whole in addrs, naddrs of them (set it to 0 first), with what
 * the coding needs besides (roles, bytes), for the writer to code where it
 * knows the block.
 */
#define GT_CALL_ADDRS_MAX 3
struct gt_call_args {
	uint8_t *at[GT_COL_COUNT];
	uint64_t addrs[GT_CALL_ADDRS_MAX];
	enum gt_addr_role roles[GT_CALL_ADDRS_MAX]; /* by name: for heap calls only */
	unsigned naddrs;
	uint64_t bytes; /* of a block returned: the product of size and nmemb (set it to 1) */
};
#define GT_PUT_ARG_U(field)                                                                        \
	a->at[GT_COLUMN_OF_U] = gt_put_uv(a->at[GT_COLUMN_OF_U], field);                           \
	a->bytes *= GT_ADDR_BYTES_##field(field);
#define GT_PUT_ARG_P(field)                                                                        \
	a->addrs[a->naddrs] = field;                                                               \
	a->roles[a->naddrs++] = GT_ADDR_ROLE_##field;
#define GT_PUT_ARG_X(field) a->at[GT_COLUMN_OF_X] = gt_put_uv(a->at[GT_COLUMN_OF_X], field);
#define GT_PUT_ARG_S(field) a->at[GT_COLUMN_OF_S] = gt_put_sv(a->at[GT_COLUMN_OF_S], field);
#define GT_PUT_ARG_T(field)                                                                        \
	a->at[GT_COLUMN_OF_T] = gt_put_bytes(a->at[GT_COLUMN_OF_T], field, field##_len);
#define GT_PUT_ARG(field, enc, label) GT_PUT_ARG_##enc(field)

#define GT_CALL_ENCODER(NAME, value, name)                                                         \
	static inline void gt_encode_##name(struct gt_call_args *a GT_ARGS_##NAME(GT_PARAM))       \
	{                                                                                          \
		GT_ARGS_##NAME(GT_PUT_ARG)                                                         \
	}
GT_FNS(GT_CALL_ENCODER)
#undef GT_CALL_ENCODER
/* No function has more P arguments than GT_CALL_ADDRS_MAX. */
#define GT_IS_ADDR_U		      0
#define GT_IS_ADDR_P		      1
#define GT_IS_ADDR_X		      0
#define GT_IS_ADDR_S		      0
#define GT_IS_ADDR_T		      0
#define GT_IS_ADDR(field, enc, label) +GT_IS_ADDR_##enc
#define GT_CHECK_ADDRS(NAME, value, name)                                                          \
	_Static_assert(0 GT_ARGS_##NAME(GT_IS_ADDR) <= GT_CALL_ADDRS_MAX, #name "'s addresses");
GT_FNS(GT_CHECK_ADDRS)
#undef GT_CHECK_ADDRS

#define GT_RECORD_ENCODER(NAME, value, name)                                                       \
	static inline uint8_t *gt_encode_##name##_body(uint8_t *p GT_FIELDS_##NAME(GT_PARAM))      \
	{                                                                                          \
		uint64_t n = 0; /* items of the list that follows a COUNT */                       \
		(void)n;                                                                           \
		GT_FIELDS_##NAME(GT_PUT) return p;                                                 \
	}
GT_FIELD_RECORDS(GT_RECORD_ENCODER)
#undef GT_RECORD_ENCODER

static inline void gt_put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void gt_put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void gt_put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/*
 * Writes the skippable-frame prefix and the header: GT_SKIPPABLE_PREFIX_SIZE
 * + GT_BLOCK_HEADER_SIZE bytes at out.
 */
static inline void gt_block_header_encode(uint8_t *out, const struct gt_block_header *h)
{
	gt_put_le32(out, GT_SKIPPABLE_MAGIC);
	gt_put_le32(out + 4, GT_BLOCK_HEADER_SIZE);
	uint8_t *p = out + GT_SKIPPABLE_PREFIX_SIZE;
	gt_put_le32(p + 0, h->magic);
	gt_put_le16(p + 4, h->major);
	gt_put_le16(p + 6, h->minor);
	gt_put_le64(p + 8, h->image_id);
	gt_put_le32(p + 16, h->pid);
	gt_put_le32(p + 20, h->seq);
	gt_put_le32(p + 24, h->frame_size);
	gt_put_le32(p + 28, h->raw_size);
	gt_put_le32(p + 32, h->records);
	gt_put_le32(p + 36, h->time_shift);
	gt_put_le64(p + 40, h->base_ns);
}

/* ---- decoding helpers (reader side) -------------------------------- */

static inline uint16_t gt_get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t gt_get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t gt_get_le64(const uint8_t *p)
{
	return (uint64_t)gt_get_le32(p) | (uint64_t)gt_get_le32(p + 4) << 32;
}

/*
 * Decodes the header content (the GT_BLOCK_HEADER_SIZE bytes after the
 * skippable prefix). Does not validate: the caller checks magic, version
 * and sizes.
 */
static inline void gt_block_header_decode(const uint8_t *p, struct gt_block_header *h)
{
	h->magic = gt_get_le32(p + 0);
	h->major = gt_get_le16(p + 4);
	h->minor = gt_get_le16(p + 6);
	h->image_id = gt_get_le64(p + 8);
	h->pid = gt_get_le32(p + 16);
	h->seq = gt_get_le32(p + 20);
	h->frame_size = gt_get_le32(p + 24);
	h->raw_size = gt_get_le32(p + 28);
	h->records = gt_get_le32(p + 32);
	h->time_shift = gt_get_le32(p + 36);
	h->base_ns = gt_get_le64(p + 40);
}

/*
 * A bounded cursor over a record body. Every get sets ok to 0 instead of
 * reading past end, so a decoder can read all fields and check ok once.
 */
struct gt_cursor {
	const uint8_t *p;
	const uint8_t *end;
	int ok;
};

static inline uint64_t gt_get_uv(struct gt_cursor *c)
{
	uint64_t v = 0;
	for (unsigned shift = 0; shift < 64; shift += 7) {
		if (c->p >= c->end) {
			c->ok = 0;
			return 0;
		}
		uint8_t b = *c->p++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	c->ok = 0; /* longer than 10 bytes: corrupt */
	return 0;
}

static inline int64_t gt_get_sv(struct gt_cursor *c)
{
	return gt_unzigzag(gt_get_uv(c));
}

/*
 * Reads what gt_put_new_addr wrote into *delta; 0 if the entry is none
 * that it writes (odd but 1), else 1 (c->ok says whether c held it).
 */
static inline int gt_get_new_addr(struct gt_cursor *c, int64_t *delta)
{
	uint64_t e = gt_get_uv(c);
	*delta = e == 1 ? gt_get_sv(c) : (int64_t)((uint64_t)gt_unzigzag(e >> 1) << 4);
	return e == 1 || !(e & 1);
}

static inline uint8_t gt_get_u8(struct gt_cursor *c)
{
	if (c->p >= c->end) {
		c->ok = 0;
		return 0;
	}
	return *c->p++;
}

/*
 * Reads a string: sets *len and returns a pointer into the body (not
 * NUL-terminated), or NULL with ok = 0 if it runs past the end.
 */
static inline const char *gt_get_str(struct gt_cursor *c, size_t *len)
{
	uint64_t n = gt_get_uv(c);
	if (!c->ok || n > (uint64_t)(c->end - c->p)) {
		c->ok = 0;
		*len = 0;
		return NULL;
	}
	const char *s = (const char *)c->p;
	c->p += n;
	*len = (size_t)n;
	return s;
}

#endif /* GITTRACE_FORMAT_H */
