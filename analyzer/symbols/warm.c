/* Modules opened on a thread of their own (warm.h). */
#include "warm.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "die.h"

struct request {
	char *path;
	uint8_t *build_id;
	size_t build_id_len;
};

/* A module asked for already: its path, a NUL and its build-id. */
struct asked {
	UT_hash_handle hh;
	size_t len;
	uint8_t key[];
};

struct gt_warmer {
	struct gt_symbols *syms;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	/* Under lock: the requests, the next one for the thread, stop asked. */
	struct request *queue;
	size_t n, cap, next;
	int stopping;
	/* The caller's own: the modules asked for, and a key looked up. */
	struct asked *asked;
	uint8_t *key;
	size_t key_cap;
};

static void *warm(void *arg)
{
	struct gt_warmer *w = arg;
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (w->next == w->n && !w->stopping)
			pthread_cond_wait(&w->changed, &w->lock);
		if (w->stopping)
			break; /* what is left, the caller opens when it looks up */
		struct request r = w->queue[w->next++];
		pthread_mutex_unlock(&w->lock);
		/* NULL only when out of memory: the caller's lookup then tries again. */
		gt_symbols_module(w->syms, r.path, r.build_id, r.build_id_len);
		free(r.path);
		free(r.build_id);
		pthread_mutex_lock(&w->lock);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

struct gt_warmer *gt_warmer_start(struct gt_symbols *syms)
{
	struct gt_warmer *w = gt_xcalloc(1, sizeof(*w));
	w->syms = syms;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->changed, NULL);
	if (pthread_create(&w->thread, NULL, warm, w) != 0) {
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->changed);
		free(w);
		return NULL;
	}
	return w;
}

/* 1 the first time this module is asked for. */
static int first_ask(struct gt_warmer *w, const char *path, size_t path_len,
		     const uint8_t *build_id, size_t build_id_len)
{
	size_t len = path_len + 1 + build_id_len;
	if (len > w->key_cap) {
		w->key_cap = 2 * len;
		w->key = gt_xrealloc(w->key, w->key_cap);
	}
	memcpy(w->key, path, path_len + 1);
	if (build_id_len)
		memcpy(w->key + path_len + 1, build_id, build_id_len);
	struct asked *a;
	HASH_FIND(hh, w->asked, w->key, len, a);
	if (a)
		return 0;
	a = gt_xmalloc(sizeof(*a) + len);
	a->len = len;
	memcpy(a->key, w->key, len);
	HASH_ADD_KEYPTR(hh, w->asked, a->key, len, a);
	return 1;
}

void gt_warmer_add(struct gt_warmer *w, const char *path, const uint8_t *build_id,
		   size_t build_id_len)
{
	if (!w || !path || path[0] != '/')
		return;
	if (!build_id)
		build_id_len = 0;
	size_t path_len = strlen(path);
	if (!first_ask(w, path, path_len, build_id, build_id_len))
		return;
	struct request r = {gt_xmalloc(path_len + 1), NULL, build_id_len};
	memcpy(r.path, path, path_len + 1);
	if (build_id_len) {
		r.build_id = gt_xmalloc(build_id_len);
		memcpy(r.build_id, build_id, build_id_len);
	}
	pthread_mutex_lock(&w->lock);
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->queue = gt_xrealloc(w->queue, w->cap * sizeof(*w->queue));
	}
	w->queue[w->n++] = r;
	pthread_cond_signal(&w->changed);
	pthread_mutex_unlock(&w->lock);
}

void gt_warmer_stop(struct gt_warmer *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->stopping = 1;
	pthread_cond_signal(&w->changed);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	for (size_t i = w->next; i < w->n; i++) {
		free(w->queue[i].path);
		free(w->queue[i].build_id);
	}
	free(w->queue);
	free(w->key);
	struct asked *a, *tmp;
	HASH_ITER(hh, w->asked, a, tmp)
	{
		HASH_DEL(w->asked, a);
		free(a);
	}
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->changed);
	free(w);
}
