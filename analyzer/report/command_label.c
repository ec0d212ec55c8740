/* Names of processes for the reports (command_label.h). */
#include "command_label.h"

#include <ctype.h>
#include <string.h>

#include "gittrace/git_argv.h"

static const char *program(const struct gt_image *img)
{
	return gt_git_basename(img->argc ? img->argv[0] : img->exe ? img->exe : "?");
}

/* The index of the first argument the label shows: past git's global options. */
static size_t first_shown(const struct gt_image *img)
{
	const char *const *argv = (const char *const *)img->argv;
	if (img->argc && gt_git_subcommand(img->argc, argv) && !strcmp(program(img), "git"))
		return gt_git_options_end(img->argc, argv);
	return 1;
}

void gt_program_words(const struct gt_image *img, const char **name, const char **word)
{
	size_t i = first_shown(img);
	*name = program(img);
	*word = i < img->argc ? img->argv[i] : "";
}

/* Appends s to buf (used bytes so far, capacity size); returns the new length. */
static size_t append_printable(char *buf, size_t used, size_t size, const char *s)
{
	for (; *s && used + 1 < size; s++)
		buf[used++] = iscntrl((unsigned char)*s) ? '?' : *s;
	buf[used] = '\0';
	return used;
}

static const char *words(const struct gt_image *img, size_t from, char *buf, size_t size)
{
	size_t used = append_printable(buf, 0, size, from ? program(img) : "");
	for (size_t i = from; i < img->argc; i++)
		used = append_printable(buf, append_printable(buf, used, size, used ? " " : ""),
					size, img->argv[i]);
	if (!img->argc && !from)
		append_printable(buf, 0, size, img->exe ? img->exe : "?");
	return buf;
}

const char *gt_command_label(const struct gt_image *img, char *buf, size_t size)
{
	return words(img, first_shown(img), buf, size);
}

const char *gt_command_line(const struct gt_image *img, char *buf, size_t size)
{
	return words(img, 0, buf, size);
}
