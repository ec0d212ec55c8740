/*
 * Frame rules: for a code address, where its frame's caller is (x86-64:
 * the CFA from rsp or rbp, the return address below it, rbp saved or not).
 * Read once per address from the module's .eh_frame with libdw, then kept
 * in a table that unwinds read without a lock (stack_walk.c).
 *
 * The table is open addressing on the address. A slot is filled under the
 * learning mutex and published by storing its address last (release);
 * readers load the address first (acquire), and again after the rule: a
 * slot cleared meanwhile reads as unknown. A full table is copied into one
 * twice its size and the new one published the same way. The old one is
 * never freed, since a reader may still be in it: at most as much memory
 * again as the current table. After a dlclose the table is cleared in
 * place (unknown is always a safe answer: the rule is read again).
 *
 * libdw reads the module's file, not its memory. A file replaced since it
 * was loaded would give wrong rules, so a module is read only when the
 * file's build-id is the loaded module's; frames in other modules get
 * GT_RULE_OTHER and the whole stack goes to libunwind. The file is open
 * only while libdw maps it: one descriptor for microseconds, once per
 * module and process, closed only if it still is that file.
 */
#include "frame_rules.h"
#include "build_id.h"
#include "loader.h"
#include "no_cancel.h"
#include "pages.h"
#include "tracer.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <libelf.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* DWARF register numbers on x86-64. */
#define DWARF_RBP 6
#define DWARF_RSP 7
#define DWARF_RA  16

struct slot {
	_Atomic uintptr_t ip; /* 0: empty */
	struct gt_frame_rule rule;
};

struct table {
	size_t mask; /* slots - 1, a power of two minus one */
	size_t used;
	_Atomic unsigned generation; /* of the modules its rules were read from */
	struct slot slots[];
};

static _Atomic(struct table *) rules;
/* Bumped when a module is unloaded: its rules, and its file, are let go. */
static _Atomic unsigned generation;
static pthread_mutex_t learning = PTHREAD_MUTEX_INITIALIZER;
/* Tracing stopped for want of memory: no module file is mapped any more. */
static atomic_bool given_back;

struct module {
	uintptr_t start, end; /* the span of its loaded segments */
	uintptr_t bias;
	Elf *elf;
	Dwarf_CFI *cfi; /* NULL: no usable CFI (no file, not the loaded build) */
};

/* Modules read so far; more than this and new ones are libunwind's. */
#define GT_RULE_MODULES 512
static struct module modules[GT_RULE_MODULES];
static int nmodules;

static size_t slot_of(uintptr_t ip, size_t mask)
{
	return (size_t)(((uint64_t)ip * 0x9e3779b97f4a7c15u) >> 32) & mask;
}

struct gt_frame_rule gt_frame_rule_find(uintptr_t ip)
{
	struct table *t = atomic_load_explicit(&rules, memory_order_acquire);
	if (t && atomic_load_explicit(&t->generation, memory_order_acquire) ==
			 atomic_load_explicit(&generation, memory_order_relaxed)) {
		for (size_t i = slot_of(ip, t->mask);; i = (i + 1) & t->mask) {
			uintptr_t key = atomic_load_explicit(&t->slots[i].ip, memory_order_acquire);
			if (key == ip) {
				struct gt_frame_rule r = t->slots[i].rule;
				atomic_thread_fence(memory_order_acquire);
				if (atomic_load_explicit(&t->slots[i].ip, memory_order_relaxed) ==
				    ip)
					return r;
				break;
			}
			if (!key)
				break;
		}
	}
	return (struct gt_frame_rule){0};
}

/* Fills slot i of t: the rule first, then the address that publishes it. */
static void put(struct table *t, uintptr_t ip, struct gt_frame_rule rule)
{
	size_t i = slot_of(ip, t->mask);
	while (atomic_load_explicit(&t->slots[i].ip, memory_order_relaxed))
		i = (i + 1) & t->mask;
	t->slots[i].rule = rule;
	atomic_store_explicit(&t->slots[i].ip, ip, memory_order_release);
	t->used++;
}

/* Publishes a table twice the size of old (or the first one); -1 if out of memory. */
static int grow(struct table *old, unsigned now)
{
	size_t n = old ? 2 * (old->mask + 1) : 4096;
	struct table *t = gt_pages(sizeof(*t) + n * sizeof(t->slots[0]));
	if (!t)
		return -1;
	t->mask = n - 1;
	atomic_store_explicit(&t->generation, now, memory_order_relaxed);
	for (size_t i = 0; old && i <= old->mask; i++) {
		uintptr_t ip = atomic_load_explicit(&old->slots[i].ip, memory_order_relaxed);
		if (ip)
			put(t, ip, old->slots[i].rule);
	}
	atomic_store_explicit(&rules, t, memory_order_release);
	return 0;
}

struct loaded {
	uintptr_t ip;
	struct module *m;
	char path[PATH_MAX];
	uint8_t build_id[64];
	size_t build_id_len;
};

static int find_loaded(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	struct loaded *l = data;
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	int inside = 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		uintptr_t start = info->dlpi_addr + ph->p_vaddr, end = start + ph->p_memsz;
		lo = start < lo ? start : lo;
		hi = end > hi ? end : hi;
		inside |= l->ip >= start && l->ip < end;
	}
	if (!inside)
		return 0;
	*l->m = (struct module){.start = lo, .end = hi, .bias = info->dlpi_addr};
	/* The main program has no name here. */
	const char *name = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "/proc/self/exe";
	strncpy(l->path, name, sizeof(l->path) - 1);
	const uint8_t *id;
	gt_build_id_of(info, &id, &l->build_id_len);
	if (l->build_id_len > sizeof(l->build_id))
		l->build_id_len = 0; /* not a build-id we could compare */
	if (l->build_id_len)
		memcpy(l->build_id, id, l->build_id_len);
	return 1;
}

/*
 * Closes fd if it still is the file opened: another thread of the program
 * may have put a descriptor of its own on that number (dup2) meanwhile.
 */
static void close_if_same(int fd, const struct stat *opened)
{
	struct stat now;
	if (!fstat(fd, &now) && now.st_dev == opened->st_dev && now.st_ino == opened->st_ino)
		close(fd);
}

/* Reads the CFI of the module's file into m if it is the loaded build. */
static void read_cfi(const struct loaded *l, struct module *m)
{
	if (!l->build_id_len)
		return; /* nothing to tell the loaded build by */
	if (atomic_load_explicit(&given_back, memory_order_relaxed))
		return; /* a walk begun before tracing stopped: libunwind's */
	int fd = open(l->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat opened;
	if (fd < 0)
		return;
	if (fstat(fd, &opened)) {
		close(fd);
		return;
	}
	if (!S_ISREG(opened.st_mode)) { /* a FIFO or a device under that name */
		close_if_same(fd, &opened);
		return;
	}
	Dwarf_CFI *cfi = NULL;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf) {
		const void *id;
		ssize_t n = dwelf_elf_gnu_build_id(elf, &id);
		if (n == (ssize_t)l->build_id_len && !memcmp(id, l->build_id, l->build_id_len))
			cfi = dwarf_getcfi_elf(elf);
		/* Mapped: libdw needs the descriptor no more. */
		elf_cntl(elf, ELF_C_FDDONE);
		if (cfi) {
			m->elf = elf;
			m->cfi = cfi;
		} else {
			elf_end(elf);
		}
	}
	close_if_same(fd, &opened);
}

static struct module *module_of(uintptr_t ip)
{
	for (int i = 0; i < nmodules; i++)
		if (ip >= modules[i].start && ip < modules[i].end)
			return &modules[i];
	if (nmodules == GT_RULE_MODULES)
		return NULL;
	static struct loaded l; /* under the learning mutex: off the stack */
	l.ip = ip;
	l.m = &modules[nmodules];
	if (!gt_loader_modules(find_loaded, &l))
		return NULL;
	read_cfi(&l, l.m);
	return &modules[nmodules++];
}

/* Whether ops is "CFA + offset" (libdw's form of DW_CFA_offset); sets *offset. */
static int at_cfa_offset(const Dwarf_Op *ops, size_t nops, int64_t *offset)
{
	if (nops < 1 || ops[0].atom != DW_OP_call_frame_cfa)
		return 0;
	if (nops == 1) {
		*offset = 0;
		return 1;
	}
	if (nops == 2 && ops[1].atom == DW_OP_plus_uconst) {
		*offset = (int64_t)ops[1].number;
		return 1;
	}
	return 0;
}

/* Whether ops is the CFA's value itself (val_offset(0), x86-64's rule for rsp). */
static int is_cfa(const Dwarf_Op *ops, size_t nops)
{
	return nops == 2 && ops[0].atom == DW_OP_call_frame_cfa && ops[1].atom == DW_OP_stack_value;
}

static struct gt_frame_rule rule_of_frame(Dwarf_Frame *frame)
{
	const struct gt_frame_rule other = {.kind = GT_RULE_OTHER};
	struct gt_frame_rule r = {.kind = GT_RULE_STEP};
	Dwarf_Addr start, end;
	bool signal_frame;
	if (dwarf_frame_info(frame, &start, &end, &signal_frame) != DWARF_RA || signal_frame)
		return other;

	Dwarf_Op mem[3], *ops;
	size_t nops;
	int64_t offset;
	if (dwarf_frame_register(frame, DWARF_RA, mem, &ops, &nops))
		return other;
	if (nops == 0 && ops == mem)
		return (struct gt_frame_rule){.kind = GT_RULE_LAST}; /* undefined: no caller */
	if (!at_cfa_offset(ops, nops, &offset) || offset != -8)
		return other;

	if (dwarf_frame_cfa(frame, &ops, &nops) || nops != 1 || ops[0].atom != DW_OP_bregx ||
	    (ops[0].number != DWARF_RSP && ops[0].number != DWARF_RBP))
		return other;
	offset = (int64_t)ops[0].number2;
	if (offset <= 0 || offset > INT32_MAX)
		return other;
	r.cfa_offset = (int32_t)offset;
	r.flags |= ops[0].number == DWARF_RBP ? GT_RULE_CFA_FROM_RBP : 0;

	/* The caller's rsp must be the CFA, as a call leaves it (libdw: "CFA, a value"). */
	if (dwarf_frame_register(frame, DWARF_RSP, mem, &ops, &nops) || !is_cfa(ops, nops))
		return other;

	if (dwarf_frame_register(frame, DWARF_RBP, mem, &ops, &nops))
		return other;
	if (nops == 0 && !ops)
		return r; /* same value: rbp is the caller's */
	/* Saved below the CFA, as pushed: a walk never reads above its stack. */
	if (!at_cfa_offset(ops, nops, &offset) || offset < INT16_MIN || offset >= 0)
		return other;
	r.rbp_offset = (int16_t)offset;
	r.flags |= GT_RULE_RBP_SAVED;
	return r;
}

static struct gt_frame_rule read_rule(uintptr_t ip)
{
	struct gt_frame_rule r = {.kind = GT_RULE_OTHER};
	struct module *m = module_of(ip);
	Dwarf_Frame *frame;
	if (m && m->cfi && !dwarf_cfi_addrframe(m->cfi, ip - m->bias, &frame)) {
		r = rule_of_frame(frame);
		free(frame); /* libdw's: the tracer's own, as its malloc was */
	}
	return r;
}

/* Empties t in place for the modules of generation now. */
static void clear(struct table *t, unsigned now)
{
	for (size_t i = 0; i <= t->mask; i++) {
		atomic_store_explicit(&t->slots[i].ip, 0, memory_order_relaxed);
		t->slots[i].rule = (struct gt_frame_rule){0};
	}
	t->used = 0;
	atomic_store_explicit(&t->generation, now, memory_order_release);
}

/* Lets go of every module read: some were unloaded since. */
static void forget_modules(void)
{
	for (int i = 0; i < nmodules; i++) {
		if (modules[i].cfi) {
			dwarf_cfi_end(modules[i].cfi);
			elf_end(modules[i].elf);
		}
	}
	memset(modules, 0, sizeof(modules));
	nmodules = 0;
}

void gt_frame_rules_forget(void)
{
	atomic_fetch_add_explicit(&generation, 1, memory_order_relaxed);
}

unsigned gt_frame_rules_generation(void)
{
	return atomic_load_explicit(&generation, memory_order_relaxed);
}

/* Lets go of the modules' files if tracing stopped for want of memory. */
static void give_back_locked(void)
{
	if (!atomic_load_explicit(&given_back, memory_order_relaxed))
		return;
	/* libdw and libelf free what they allocated: the tracer's own calls. */
	struct gt_own guard = gt_own_begin();
	forget_modules();
	gt_own_end(&guard);
}

/*
 * How long a give-back waits for a thread that is reading a rule: one
 * read takes well under a millisecond, but a reader may be waiting for
 * the loader's lock, which this thread may hold (gt_frame_rule_learn).
 */
#define GIVE_BACK_WAIT_NS (100 * 1000 * 1000)

void gt_frame_rules_give_back(void)
{
	atomic_store_explicit(&given_back, 1, memory_order_relaxed);
	struct timespec until;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_nsec += GIVE_BACK_WAIT_NS;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	/* Past the wait, the reader lets them go when it is done. */
	if (pthread_mutex_clocklock(&learning, CLOCK_MONOTONIC, &until))
		return;
	give_back_locked();
	pthread_mutex_unlock(&learning);
}

int gt_frame_rule_learn(uintptr_t ip)
{
	/*
	 * Never wait here: the learner may be waiting for the loader's lock
	 * (dl_iterate_phdr) that this thread holds, if it allocates inside a
	 * dl_iterate_phdr callback. A busy table sends this one stack to
	 * libunwind; a later walk learns the rule.
	 */
	if (pthread_mutex_trylock(&learning))
		return -1;
	/* libdw and libelf allocate, and those calls are the tracer's own. */
	struct gt_own guard = gt_own_begin();
	/* open and close are cancellation points: never leave the lock held. */
	int cancel = gt_cancel_off();
	int failed = 0;
	if (!gt_frame_rule_find(ip).kind) {
		unsigned now = gt_frame_rules_generation();
		struct table *t = atomic_load_explicit(&rules, memory_order_relaxed);
		if (t && atomic_load_explicit(&t->generation, memory_order_relaxed) != now) {
			forget_modules();
			clear(t, now);
		}
		if (!t || (t->used + 1) * 2 > t->mask + 1) {
			failed = grow(t, now);
			t = atomic_load_explicit(&rules, memory_order_relaxed);
		}
		if (!failed)
			put(t, ip, read_rule(ip));
	}
	gt_cancel_restore(cancel);
	gt_own_end(&guard);
	give_back_locked(); /* a give-back that could not wait for this learner */
	pthread_mutex_unlock(&learning);
	return failed;
}
