/* The records written before a signal ends the process (hooks_signal.c). */
#ifndef GT_HOOKS_SIGNAL_H
#define GT_HOOKS_SIGNAL_H

/*
 * Before a seccomp sandbox, which may forbid what the handler does: each
 * signal handled goes back to its default action, and stays the program's.
 */
void gt_signals_give_back(void);

#endif /* GT_HOOKS_SIGNAL_H */
