/* The "by caller in the program" table (callers.h). */
#include "callers.h"

#include <stdlib.h>
#include <string.h>

#include "die.h"

const char *gt_caller_row_function(const struct gt_caller_row *r)
{
	return r->sites[0]->function;
}

const char *gt_caller_row_caller(const struct gt_caller_row *r)
{
	const struct gt_site *s = r->sites[0];
	return s->caller < s->nframes ? s->frames[s->caller].function : NULL;
}

/* A row being filled, found by its function and caller. */
struct pending {
	char *key; /* function, NUL, caller or "" */
	size_t row;
	UT_hash_handle hh;
};

static char *row_key(const struct gt_site *s, size_t *len)
{
	const char *caller = s->caller < s->nframes ? s->frames[s->caller].function : "";
	size_t f = strlen(s->function), c = strlen(caller);
	char *key = gt_xcalloc(f + c + 2, 1);
	memcpy(key, s->function, f);
	memcpy(key + f + 1, caller, c);
	*len = f + c + 1;
	return key;
}

static int by_allocations(const void *a, const void *b)
{
	const struct gt_caller_row *x = a, *y = b;
	return x->allocations < y->allocations ? 1 : x->allocations > y->allocations ? -1 : 0;
}

void gt_callers_build(struct gt_proc *p)
{
	struct pending *table = NULL, *e, *tmp;
	p->callers = gt_xcalloc(p->nsites ? p->nsites : 1, sizeof(*p->callers));
	p->ncallers = 0;
	for (size_t i = 0; i < p->nsites; i++) {
		struct gt_site *s = p->sites[i];
		size_t len;
		char *key = row_key(s, &len);
		HASH_FIND(hh, table, key, len, e);
		if (e) {
			free(key);
		} else {
			e = gt_xcalloc(1, sizeof(*e));
			e->key = key;
			e->row = p->ncallers++;
			HASH_ADD_KEYPTR(hh, table, e->key, len, e);
		}
		struct gt_caller_row *r = &p->callers[e->row];
		/* p->sites is in order of allocations: so is each row's. */
		r->sites = gt_xrealloc(r->sites, (r->nsites + 1) * sizeof(*r->sites));
		r->sites[r->nsites++] = s;
		r->stacks++;
		r->allocations += s->allocations;
		r->bytes += s->bytes;
		r->temporary += s->temporary;
	}
	HASH_ITER(hh, table, e, tmp)
	{
		HASH_DEL(table, e);
		free(e->key);
		free(e);
	}
	qsort(p->callers, p->ncallers, sizeof(*p->callers), by_allocations);
}

void gt_callers_cap(struct gt_proc *p, size_t keep, unsigned char *kept)
{
	if (keep && p->ncallers > keep) {
		for (size_t i = keep; i < p->ncallers; i++)
			free(p->callers[i].sites);
		p->ncallers = keep;
	}
	for (size_t i = 0; i < p->ncallers; i++) {
		struct gt_caller_row *r = &p->callers[i];
		if (keep && r->nsites > keep)
			r->nsites = keep;
		for (size_t k = 0; k < r->nsites; k++)
			kept[r->sites[k]->index] = 1;
	}
}

void gt_callers_release(struct gt_proc *p)
{
	for (size_t i = 0; i < p->ncallers; i++)
		free(p->callers[i].sites);
	free(p->callers);
	p->callers = NULL;
	p->ncallers = 0;
}
