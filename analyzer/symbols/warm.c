/* Modules opened on a thread of their own (warm.h). */
#include "warm.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "die.h"

/* A module asked for: its key (gt_symbols_module_key), queued once. */
struct asked {
	UT_hash_handle hh;
	size_t len, path_len;
	char key[];
};

struct gt_warmer {
	struct gt_symbols *syms;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	/* Under lock: the modules in the order asked, the next one for the
	 * thread, stop asked. Each entry is also in `asked`, and lives until
	 * gt_warmer_stop has joined the thread. */
	struct asked **queue;
	size_t n, cap, next;
	int stopping;
	/* The caller's own: the modules asked for, and a key looked up. */
	struct asked *asked;
	char *key;
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
		const struct asked *a = w->queue[w->next++];
		pthread_mutex_unlock(&w->lock);
		/* NULL only when out of memory: the caller's lookup then tries again. */
		gt_symbols_module(w->syms, a->key, (const uint8_t *)a->key + a->path_len + 1,
				  a->len - a->path_len - 1);
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

void gt_warmer_add(struct gt_warmer *w, const char *path, const uint8_t *build_id,
		   size_t build_id_len)
{
	if (!w || !path || path[0] != '/')
		return;
	if (!build_id)
		build_id_len = 0;
	size_t len = gt_symbols_module_key(&w->key, &w->key_cap, path, build_id, build_id_len);
	if (!len)
		gt_die("out of memory (a module's key)");
	struct asked *a;
	HASH_FIND(hh, w->asked, w->key, len, a);
	if (a)
		return;
	a = gt_xmalloc(sizeof(*a) + len);
	a->len = len;
	a->path_len = len - 1 - build_id_len;
	memcpy(a->key, w->key, len);
	HASH_ADD_KEYPTR(hh, w->asked, a->key, len, a);
	pthread_mutex_lock(&w->lock);
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->queue = gt_xrealloc(w->queue, w->cap * sizeof(*w->queue));
	}
	w->queue[w->n++] = a;
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
