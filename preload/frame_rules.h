/*
 * How to step from a frame to its caller's, per code address, as the
 * module's call frame information says (frame_rules.c). x86-64 only.
 */
#ifndef GT_FRAME_RULES_H
#define GT_FRAME_RULES_H

#include <stdint.h>

enum gt_rule_kind {
	GT_RULE_STEP = 1, /* the caller is found from rsp or rbp, as below */
	GT_RULE_LAST,	  /* the outermost frame: no caller (_start, a thread's start) */
	GT_RULE_OTHER,	  /* anything else (a signal frame, no CFI): libunwind's case */
};

#define GT_RULE_CFA_FROM_RBP 1 /* the CFA is rbp + cfa_offset, else rsp + cfa_offset */
#define GT_RULE_RBP_SAVED    2 /* the caller's rbp is at CFA + rbp_offset, else unchanged */

/*
 * The return address is always at CFA - 8: frames that keep it elsewhere
 * are GT_RULE_OTHER.
 */
struct gt_frame_rule {
	int32_t cfa_offset;
	int16_t rbp_offset;
	uint8_t kind; /* enum gt_rule_kind; 0: not known yet */
	uint8_t flags;
};

/*
 * The rule for the instruction at ip if it is known yet: no lock, no
 * allocation. Return addresses are looked up at ip - 1, inside the call.
 */
struct gt_frame_rule gt_frame_rule_find(uintptr_t ip);

/*
 * Reads the rule for ip from its module (libdw) and keeps it. Slow, and
 * libdw locks and allocates: callers keep fork out (fork_guard.h). Returns
 * -1 if it could not be kept (another thread is learning, or out of
 * memory).
 */
int gt_frame_rule_learn(uintptr_t ip);

/*
 * A module was unloaded: every rule and module read so far is let go (the
 * next learning does it). No lock: callable from the dlclose hook.
 */
void gt_frame_rules_forget(void);

/* Changes with each gt_frame_rules_forget: walks kept from before are stale. */
unsigned gt_frame_rules_generation(void);

/*
 * Tracing stopped for want of memory: the modules' files libdw mapped are
 * let go, as their whole files count against a limit on address space
 * (`ulimit -v`), however little of them the rules were read from, and no
 * file is mapped again (rules read from then on are GT_RULE_OTHER). The
 * rules read stay. A thread that is reading a rule is waited for 100 ms
 * at most; past that it lets the files go when it is done.
 */
void gt_frame_rules_give_back(void);

#endif /* GT_FRAME_RULES_H */
