/*
 * tsan_pages: the tracer's pages (preload/pages.c) handed from one thread
 * to another through the kernel, under ThreadSanitizer.
 *
 * One thread writes a page and unmaps it while holding a lock; another,
 * with no lock and nothing else ordering it after the first, maps a page,
 * gets the same address back from the kernel and writes it. The kernel
 * orders the two, but TSan cannot see the raw system calls: unless pages.c
 * tells it, it reports a data race (the tracer's zstd buffers and a
 * thread's stack-walk memo met this way in behaviour.tsan).
 *
 * Exit 0 with no report; 66 when TSan reports (TSan's exit code); 1 when
 * the kernel never gave the address back in ROUNDS tries, which proves
 * nothing.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "pages.h"

#define PAGE_BYTES 4096
#define TRIES	   64
#define ROUNDS	   10

static pthread_mutex_t writer_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(uintptr_t) unmapped; /* relaxed: orders nothing for TSan */

static void *first_owner(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&writer_lock);
	uint64_t *p = gt_pages(PAGE_BYTES);
	if (p) {
		/* word by word: TSan keeps no trace of every word of a memset */
		for (size_t i = 0; i < PAGE_BYTES / sizeof(*p); i++)
			p[i] = i;
		gt_pages_free(p, PAGE_BYTES);
	}
	pthread_mutex_unlock(&writer_lock);
	atomic_store_explicit(&unmapped, p ? (uintptr_t)p : UINTPTR_MAX, memory_order_relaxed);
	return NULL;
}

/* Maps pages until one comes back at the address the first owner unmapped. */
static void *second_owner(void *reused)
{
	uintptr_t want;
	while (!(want = atomic_load_explicit(&unmapped, memory_order_relaxed)))
		;
	uint64_t *held[TRIES];
	int n = 0;
	*(int *)reused = 0;
	while (n < TRIES && (held[n] = gt_pages(PAGE_BYTES))) {
		if ((uintptr_t)held[n] == want) {
			held[n][3] = 2;
			*(int *)reused = 1;
			n++;
			break;
		}
		n++; /* kept mapped, so the next map looks elsewhere */
	}
	while (n--)
		gt_pages_free(held[n], PAGE_BYTES);
	return NULL;
}

int main(void)
{
	/* Another mapping (TSan's own) may take the hole first: try again. */
	int reused = 0;
	for (int round = 0; round < ROUNDS && !reused; round++) {
		pthread_t first, second;
		atomic_store_explicit(&unmapped, 0, memory_order_relaxed);
		pthread_create(&second, NULL, second_owner, &reused);
		pthread_create(&first, NULL, first_owner, NULL);
		pthread_join(first, NULL);
		pthread_join(second, NULL);
	}
	if (!reused) {
		fprintf(stderr, "tsan_pages: the kernel never mapped the unmapped page again\n");
		return 1;
	}
	return 0;
}
