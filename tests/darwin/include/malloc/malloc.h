/*
 * Stand-in for macOS's <malloc/malloc.h>, so that interpose_darwin.c can be
 * syntax-checked on Linux (tests/darwin). It declares nothing the
 * interposer uses: glibc's <stdlib.h> and <sys/mman.h> declare the rest.
 */
