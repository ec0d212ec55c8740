/* Names of processes for the reports (command_label.h). */
#include "command_label.h"

#include <ctype.h>
#include <string.h>

#include "gittrace/git_argv.h"

/* argv[0]'s last component; the exe's when argv[0] is empty (Linux runs an
 * exec with no argv as one empty word). */
static const char *program(const struct gt_image *img)
{
	if (img->argc && img->argv[0][0])
		return gt_git_basename(img->argv[0]);
	return gt_git_basename(img->exe && img->exe[0] ? img->exe : "?");
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

/*
 * Appends s to buf (used bytes so far, capacity size); returns the new
 * length. What does not fit is cut at a character's start and marked "…"
 * (size must leave room for it: at least 4).
 */
static size_t append_printable(char *buf, size_t used, size_t size, const char *s)
{
	static const char more[] = "…";
	for (; *s && used + sizeof(more) < size; s++)
		buf[used++] = iscntrl((unsigned char)*s) ? '?' : *s;
	if (*s) {
		while (used && ((unsigned char)buf[used - 1] & 0xc0) == 0x80)
			used--; /* a continuation byte: back to its sequence's start */
		if (used && (unsigned char)buf[used - 1] >= 0xc0)
			used--;
		memcpy(buf + used, more, sizeof(more) - 1);
		used += sizeof(more) - 1;
	}
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

int gt_command_label_shortens(const struct gt_image *img)
{
	return first_shown(img) > 1 || (img->argc && strcmp(program(img), img->argv[0]) != 0);
}

const char *gt_command_label(const struct gt_image *img, char *buf, size_t size)
{
	return words(img, first_shown(img), buf, size);
}

const char *gt_command_line(const struct gt_image *img, char *buf, size_t size)
{
	return words(img, 0, buf, size);
}
