/*
 * A small streaming JSON writer: keeps track of commas so report code reads
 * like the structure it writes. Output is compact, one object per call
 * sequence; strings are escaped by gt_json_escape.
 */
#ifndef GT_JSON_H
#define GT_JSON_H

#include <stdint.h>
#include <stdio.h>

#define GT_JSON_MAX_DEPTH 32

struct gt_json {
	FILE *out;
	int depth;
	int need_comma[GT_JSON_MAX_DEPTH];
};

void gt_json_init(struct gt_json *j, FILE *out);
void gt_json_begin_object(struct gt_json *j);
void gt_json_end_object(struct gt_json *j);
void gt_json_begin_array(struct gt_json *j);
void gt_json_end_array(struct gt_json *j);
/* A key inside an object; the value call follows. */
void gt_json_key(struct gt_json *j, const char *key);
void gt_json_str(struct gt_json *j, const char *s);
void gt_json_strn(struct gt_json *j, const char *s, size_t n);
void gt_json_uint(struct gt_json *j, uint64_t v);
void gt_json_int(struct gt_json *j, int64_t v);
/* Finite doubles with 6 significant decimals; NaN/inf become null. */
void gt_json_double(struct gt_json *j, double v);
void gt_json_bool(struct gt_json *j, int v);
void gt_json_null(struct gt_json *j);

/* A key and its value in one call, for the common scalar members. */
void gt_json_kv_uint(struct gt_json *j, const char *key, uint64_t v);
void gt_json_kv_int(struct gt_json *j, const char *key, int64_t v);
void gt_json_kv_double(struct gt_json *j, const char *key, double v);
void gt_json_kv_str(struct gt_json *j, const char *key, const char *s);
/* As gt_json_kv_str, with null for a NULL s. */
void gt_json_kv_str_or_null(struct gt_json *j, const char *key, const char *s);
void gt_json_kv_bool(struct gt_json *j, const char *key, int v);
/* An array of n strings (argv, env, evidence lines). */
void gt_json_strs(struct gt_json *j, char *const *v, size_t n);

/*
 * Writes s (n bytes) as a JSON string with quotes: escapes " \ and control
 * characters, passes valid UTF-8 through, and replaces each byte of an
 * invalid UTF-8 sequence with U+FFFD (paths and argv are bytes, JSON is
 * Unicode).
 */
void gt_json_escape(FILE *out, const char *s, size_t n);

#endif /* GT_JSON_H */
