/*
 * iconv_modules: opens and closes iconv conversions through several of
 * glibc's gconv modules, which glibc loads and unloads itself, without
 * dlopen or dlclose (so no hook sees them), and whose init functions
 * allocate: the module test's subject. Prints the conversions it made.
 */
#include <iconv.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	static const char *const codes[] = {"UTF-16", "EBCDIC-US", "KOI8-R", "SJIS", "BIG5"};
	int made = 0;
	for (int round = 0; round < 3; round++)
		for (size_t i = 0; i < sizeof(codes) / sizeof(*codes); i++) {
			iconv_t cd = iconv_open(codes[i], "ISO-8859-1");
			if (cd == (iconv_t)-1)
				continue;
			char in[] = "hello", out[64], *ip = in, *op = out;
			size_t il = strlen(in), ol = sizeof(out);
			made += iconv(cd, &ip, &il, &op, &ol) != (size_t)-1;
			iconv_close(cd);
		}
	printf("%d conversions\n", made);
	return 0;
}
