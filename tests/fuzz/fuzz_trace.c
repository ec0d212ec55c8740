/*
 * libFuzzer harness for gittrace-report: each input is a trace file, run
 * through the whole pipeline the CLI runs (reader → records → model, fed
 * through --dump's loop, each image summarized with symbols as the model
 * retires it, its stacks folded and added to the flame graph → JSON, text,
 * folded and HTML reports), output to /dev/null; first through the decoding thread
 * (read/decoder.c) alone, whose errors come back through its queue. Crashes hide in the model and
 * the reports as much as in the reader, so none of them is skipped.
 *
 * Bad input makes the analyzer call gt_die(), which would end the process;
 * the harness sets die.h's test-only die hook to longjmp back here instead,
 * then frees what the pipeline had built so far, as the exit would have.
 *
 * The reader opens a path, so each input is written to a memfd and opened
 * as /proc/self/fd/N: no file on disk, nothing changed in the reader.
 *
 * The symbols (gt_symbols) are kept from one input to the next, as one
 * analyzer run keeps them across the images of a trace: opening libc's and
 * the traced program's debug info again for every input made a real trace
 * take 300 ms, most of it in libdw. A lookup depends only on the module's
 * file, build-id and address, so a cached answer is the one a fresh
 * symbolizer would give. The cache only grows (fuzzed addresses are all
 * distinct), so it is renewed every SYMBOLS_RENEW inputs.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "decoder.h"
#include "die.h"
#include "dump.h"
#include "model.h"
#include "progress.h"
#include "reader.h"
#include "report.h"
#include "summary.h"
#include "symbolize.h"
#include "symbols.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int input_fd = -1;
static char input_path[64];
static FILE *devnull;
static jmp_buf on_die;
static struct gt_symbols *syms;
static unsigned inputs;

#define SYMBOLS_RENEW 4096

/* What one input has built, so a gt_die() half way can be cleaned up. */
struct pipeline_run {
	struct gt_symbolizer *sym;
	struct gt_model *model;
	struct gt_reader *reader;
	struct gt_decoder *decoder;
	struct gt_summary summary;
	int have_summary;
	struct gt_flame *flame;
	struct gt_folded *folded[2]; /* by allocations, by bytes */
};
static struct pipeline_run run;

static void jump_back(void)
{
	longjmp(on_die, 1);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	input_fd = memfd_create("gittrace-fuzz-input", MFD_CLOEXEC);
	devnull = fopen("/dev/null", "w");
	if (input_fd < 0 || !devnull) {
		perror("fuzz_trace: setup");
		abort();
	}
	snprintf(input_path, sizeof(input_path), "/proc/self/fd/%d", input_fd);
	gt_set_die_hook(jump_back);
	return 0;
}

static void write_input(const uint8_t *data, size_t size)
{
	size_t done = 0;
	if (ftruncate(input_fd, 0))
		abort();
	while (done < size) {
		ssize_t n = pwrite(input_fd, data + done, size - done, (off_t)done);
		if (n <= 0)
			abort();
		done += (size_t)n;
	}
}

/* The decoding thread's batches, each record looked at as the model would. */
static void decode_on_thread(void)
{
	const struct gt_batch *batch;
	uint64_t fns = 0;
	run.decoder = gt_decoder_open(input_path);
	while (gt_decoder_next(run.decoder, &batch)) {
		struct gt_batch_cursor c;
		gt_batch_cursor_init(&c);
		for (const struct gt_record *r; (r = gt_batch_record(batch, &c));)
			fns += r->raw.tag == GT_REC_CALL ? r->u.call.fn : r->raw.tag;
	}
	fprintf(devnull, "%llu\n", (unsigned long long)fns);
	gt_decoder_close(run.decoder);
	run.decoder = NULL;
}

static void summarize(void *summary, struct gt_image *img)
{
	gt_summary_add(summary, img);
}

/* What --html and --folded do with each process's stacks. */
static void take_stacks(void *unused, const struct gt_proc *p)
{
	(void)unused;
	gt_flame_add(run.flame, p);
	gt_folded_add(run.folded[0], p);
	gt_folded_add(run.folded[1], p);
}

/* The CLI's main() without option parsing: every mode, one after another. */
static void pipeline(void)
{
	struct gt_progress progress;
	struct gt_block b;

	if (inputs++ % SYMBOLS_RENEW == 0) {
		gt_symbols_free(syms);
		syms = gt_symbols_new();
		if (!syms)
			abort();
	}
	decode_on_thread();
	run.sym = gt_symbolizer_new(syms);
	struct gt_dump dump = {devnull, run.sym};
	run.model = gt_model_new();
	gt_summary_init(&run.summary, input_path, run.sym, -1, 0, NULL);
	run.have_summary = 1;
	run.flame = gt_flame_new();
	run.folded[0] = gt_folded_new(0);
	run.folded[1] = gt_folded_new(1);
	gt_summary_on_stacks(&run.summary, take_stacks, NULL);
	gt_model_on_retire(run.model, summarize, &run.summary);
	run.reader = gt_reader_open(input_path);
	gt_progress_init(&progress);
	while (gt_reader_next(run.reader, &b)) {
		gt_dump_block(&dump, run.model, &b); /* feeds the model too */
		gt_progress_update(&progress, gt_reader_pos(run.reader), gt_reader_size(run.reader),
				   gt_model_events(run.model));
	}
	gt_progress_done();
	gt_model_finish(run.model, gt_reader_torn(run.reader));
	gt_summary_finish(&run.summary, run.model);

	gt_report_json(devnull, &run.summary, 0);
	gt_report_text(devnull, &run.summary, 10, 2);
	for (int i = 0; i < 2; i++)
		gt_folded_print(run.folded[i], devnull);
	gt_report_html(devnull, &run.summary, run.flame, 50, 2);
}

static void release(void)
{
	if (run.have_summary)
		gt_summary_release(&run.summary);
	gt_decoder_close(run.decoder);
	gt_reader_close(run.reader);
	gt_model_free(run.model);
	gt_symbolizer_free(run.sym);
	gt_flame_free(run.flame);
	for (int i = 0; i < 2; i++)
		gt_folded_free(run.folded[i]);
	run = (struct pipeline_run){0};
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	write_input(data, size);
	if (!setjmp(on_die))
		pipeline();
	release();
	return 0;
}
