/*
 * The tracer's thread-local variables. initial-exec: the library is loaded
 * at program start (LD_PRELOAD), so an access is an offset from the thread
 * pointer, never a call into the dynamic loader, which may allocate.
 */
#ifndef GT_TLS_H
#define GT_TLS_H

#define GT_TLS __attribute__((tls_model("initial-exec"))) __thread

#endif /* GT_TLS_H */
