/*
 * Linux interposition: hooks are exported under the libc names (see
 * interpose.h) and LD_PRELOAD makes the dynamic linker bind the program's
 * calls to them. The real functions are the next definitions in search
 * order, found with dlsym(RTLD_NEXT).
 */
#include "interpose.h"
#include "tracer.h"

#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GT_HOOK(ret, name, params) ret(*gt_real_##name) params;
#include "hooks.def"

/* getpid and the five real functions libc may serve (served_by_libc). */
#define OWNED 6

/* Functions and the loaded object whose segments hold each (NULL: none). */
struct owners {
	uintptr_t addr[OWNED];
	const void *object[OWNED]; /* the object's program headers: one per object */
};

static int find_owners(struct dl_phdr_info *info, size_t size, void *data)
{
	struct owners *o = data;
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		uintptr_t start = info->dlpi_addr + ph->p_vaddr, end = start + ph->p_memsz;
		for (int k = 0; k < OWNED; k++)
			if (o->addr[k] >= start && o->addr[k] < end)
				o->object[k] = info->dlpi_phdr;
	}
	return 0;
}

/*
 * Whether libc itself serves the allocations and maps (tracer.h,
 * gt_real_call_guard): whether the real functions lie in the object of
 * getpid, which no one interposes. Found with dl_iterate_phdr, not dladdr,
 * which also searches the object's symbols: in a process as short as `git
 * rev-parse` ten dladdr calls were 5% of its time.
 */
static int served_by_libc(void)
{
	/* getpid's definition, not its address here: in a non-PIE program
	 * that takes it, that address is the program's PLT entry. */
	struct owners o = {{(uintptr_t)dlsym(RTLD_NEXT, "getpid"), (uintptr_t)gt_real_malloc,
			    (uintptr_t)gt_real_free, (uintptr_t)gt_real_realloc,
			    (uintptr_t)gt_real_mmap, (uintptr_t)gt_real_munmap},
			   {0}};
	dl_iterate_phdr(find_owners, &o);
	for (int k = 1; k < OWNED; k++)
		if (!o.object[k] || o.object[k] != o.object[0])
			return 0;
	return o.object[0] != NULL;
}

/*
 * Whether a name leads to this object in the global search order, given
 * the function's address here: the dynamic linker's answer (through the
 * GOT: the hooks are exported, so they may be interposed), with no dlsym,
 * which may allocate, from another allocator. (In the TSan harness, whose
 * hooks are renamed, it is the renamed hook.)
 */
static int ours(void *found)
{
	Dl_info first, self;
	return found && dladdr(found, &first) && dladdr((void *)ours, &self) &&
	       first.dli_fbase == self.dli_fbase;
}

/*
 * Whether a function's address here is a PLT entry of the program that
 * stands for a function it does not define. A program built without PIE
 * that takes a function's address (Debian's python3 takes malloc's and
 * free's) makes that entry the function's address in every module; calls
 * through it still go to the first definition in the search order.
 */
static int stand_in(void *found)
{
	Dl_info info;
	const ElfW(Sym) *sym = NULL;
	return dladdr1(found, &info, (void **)&sym, RTLD_DL_SYMENT) && sym &&
	       sym->st_shndx == SHN_UNDEF;
}

/*
 * The first of the malloc family that is no stand-in (where the program
 * took malloc's address, another of the family tells); NULL where every
 * one is, and which comes first cannot be told.
 */
static void *family_in_front(void)
{
	void *const family[] = {(void *)malloc, (void *)calloc, (void *)realloc, (void *)free};
	for (size_t i = 0; i < sizeof(family) / sizeof(family[0]); i++)
		if (!stand_in(family[i]))
			return family[i];
	return NULL;
}

int gt_hooks_in_front(void)
{
	return ours(family_in_front());
}

/* The file name of the object path names, past its last '/'. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

int gt_other_copy_in_front(void)
{
	void *found = family_in_front();
	Dl_info front, self;
	return found && !ours(found) && dladdr(found, &front) && front.dli_fname &&
	       dladdr((void *)ours, &self) && self.dli_fname &&
	       !strcmp(base_name(front.dli_fname), base_name(self.dli_fname));
}

void *(*gt_realloc_in_front(void))(void *, size_t)
{
	/* 0: not looked up yet, 1: ours, 2: another's. */
	static int state;
	int s = __atomic_load_n(&state, __ATOMIC_ACQUIRE);
	if (!s) {
		/* A preload that wraps realloc alone and passes it on to ours
		 * leaves tracing on: there reallocarray stays ours whole. */
		s = gt_hooks_in_front() || ours((void *)realloc) ? 1 : 2;
		__atomic_store_n(&state, s, __ATOMIC_RELEASE);
	}
	return s == 2 ? realloc : NULL;
}

#ifdef GT_TSAN_HARNESS
/* The preload's own code under TSan, its runtime there on purpose (tests/behaviour). */
const char *gt_sanitizer_runtime(void)
{
	return NULL;
}
#else
/*
 * Whether name, a loaded object's path, is a file of prefix's: its last
 * component begins with prefix. By hand: while a sanitizer starts, its
 * interceptors of strrchr and strncmp would call nothing.
 */
static int named(const char *name, const char *prefix)
{
	const char *base = name;
	for (const char *c = name; *c; c++)
		if (*c == '/')
			base = c + 1;
	while (*prefix && *base == *prefix)
		base++, prefix++;
	return !*prefix;
}

const char *gt_sanitizer_runtime(void)
{
	static const char *const runtimes[] = {"libasan.so",	   "libtsan.so",
					       "libhwasan.so",	   "libclang_rt.asan",
					       "libclang_rt.tsan", "libclang_rt.hwasan"};
	/* The loader's list of objects: plain memory, no call it intercepts. */
	for (const struct link_map *m = _r_debug.r_map; m; m = m->l_next)
		for (size_t i = 0; m->l_name && i < sizeof(runtimes) / sizeof(runtimes[0]); i++)
			if (named(m->l_name, runtimes[i]))
				return m->l_name;
	return NULL;
}
#endif

/* Set by this library's constructors, which run after every preinit function. */
static int constructed;

__attribute__((constructor)) static void note_constructed(void)
{
	__atomic_store_n(&constructed, 1, __ATOMIC_RELEASE);
}

/* 0: not yet, 1: a thread is resolving, 2: done. */
static int resolve_state;

int gt_sanitizer_starting(void)
{
	return !__atomic_load_n(&constructed, __ATOMIC_ACQUIRE) &&
	       __atomic_load_n(&resolve_state, __ATOMIC_ACQUIRE) == 0 && gt_sanitizer_runtime();
}

void gt_resolve_real(void)
{
	int expected = 0;
	if (!__atomic_compare_exchange_n(&resolve_state, &expected, 1, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return; /* done, or in progress: the caller falls back to the arena */

	/*
	 * dlsym's own allocations are not the program's. Store each pointer
	 * as soon as it is known: dlsym may call calloc, and the hooks use
	 * whatever real function is already there.
	 */
	struct gt_own saved_guard = gt_own_begin();
#define GT_HOOK(ret, name, params)                                                                 \
	__atomic_store_n(&gt_real_##name, (ret(*) params)dlsym(RTLD_NEXT, #name), __ATOMIC_RELEASE);
#include "hooks.def"
	gt_real_call_guard = served_by_libc() ? GT_GUARD_HOOK : GT_GUARD_OWN;
	gt_own_end(&saved_guard);
	__atomic_store_n(&resolve_state, 2, __ATOMIC_RELEASE);
}
