/*
 * dl_iterate_phdr-based lookup of the module containing an address, for the
 * symbolizer test (see module_of.h).
 */
#define _GNU_SOURCE
#include "module_of.h"

#include <elf.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

struct search {
	uintptr_t addr;
	struct gt_module_of *out;
	int found;
};

/* Copies the NT_GNU_BUILD_ID note of a PT_NOTE segment, if it has one. */
static void read_build_id(const char *p, size_t size, struct gt_module_of *out)
{
	const char *end = p + size;
	while ((size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
		const ElfW(Nhdr) *n = (const void *)p;
		size_t name_size = (n->n_namesz + 3) & ~(size_t)3;
		size_t desc_size = (n->n_descsz + 3) & ~(size_t)3;
		const char *name = p + sizeof(*n);
		const char *desc = name + name_size;
		if (desc_size > (size_t)(end - desc) || name_size > (size_t)(end - name))
			return;
		if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(name, "GNU", 4) &&
		    n->n_descsz <= sizeof(out->build_id)) {
			memcpy(out->build_id, desc, n->n_descsz);
			out->build_id_len = n->n_descsz;
			return;
		}
		p = desc + desc_size;
	}
}

static int visit(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	struct search *s = data;
	int inside = 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && s->addr >= start && s->addr - start < ph->p_memsz)
			inside = 1;
	}
	if (!inside)
		return 0;
	struct gt_module_of *out = s->out;
	memset(out, 0, sizeof(*out));
	out->bias = info->dlpi_addr;
	/* The main program is the one dl_iterate_phdr names "". */
	out->is_main = !info->dlpi_name || !info->dlpi_name[0];
	if (out->is_main) {
		ssize_t n = readlink("/proc/self/exe", out->path, sizeof(out->path) - 1);
		if (n < 0)
			return -1;
		out->path[n] = 0;
	} else {
		strncpy(out->path, info->dlpi_name, sizeof(out->path) - 1);
	}
	for (int i = 0; i < info->dlpi_phnum && !out->build_id_len; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_NOTE)
			read_build_id((const char *)(info->dlpi_addr + ph->p_vaddr), ph->p_memsz,
				      out);
	}
	s->found = 1;
	return 1;
}

int gt_module_of(const void *addr, struct gt_module_of *out)
{
	struct search s = {(uintptr_t)addr, out, 0};
	dl_iterate_phdr(visit, &s);
	return s.found ? 0 : -1;
}
