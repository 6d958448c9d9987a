/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lv-live.h - latency-view --live: the live session behind the model.
 *
 * The caller's loop waits (for a key, or lv_live_wait_ms()), then calls
 * lv_live_tick(): it replays what the readers brought, and every refresh
 * gives the model the sliding window's new report, keeping the user's
 * place (lv_model_swap()).  No curses here.
 */
#ifndef LV_LIVE_H
#define LV_LIVE_H

#include <stdbool.h>

#include "cli-live.h"
#include "lv-model.h"

struct lv_live;

/*
 * Start tracing as @cl says, with @opts: 0 with *@out, or the exit
 * status (said on stderr, naming @prog).
 */
int lv_live_start(const char *prog, struct cli_live *cl,
		  const struct lt_options *opts, bool quiet,
		  struct lv_live **out);
/* The first report, for lv_model_init(). */
struct lt_report *lv_live_report(struct lv_live *l);
/* Tie @m to the session: its title and trace screen say what goes on. */
void lv_live_attach(struct lv_live *l, struct lv_model *m);
/* Milliseconds until lv_live_tick() has something to do (a refresh, the end). */
int lv_live_wait_ms(struct lv_live *l);
/* The readers' fd, readable when pages came in. */
int lv_live_fd(struct lv_live *l);
/*
 * Replay, and at a refresh (or at --duration's end: tracing stops, the
 * final report) show the new report in @m.  0, or -1 when the session
 * failed (lv_live_error() says why; the last report stays shown).
 */
int lv_live_tick(struct lv_live *l, struct lv_model *m);
bool lv_live_stopped(const struct lv_live *l);
/* Stop now (q, Ctrl-C): @output written; with @final, the last report shown. */
int lv_live_stop(struct lv_live *l, struct lv_model *m, bool final);
const struct lt_error *lv_live_error(const struct lv_live *l);
/* "12.3 s, 45678 events, 0 lost": for stderr at the end. */
const char *lv_live_summary(struct lv_live *l, char *buf, size_t len);
/* tracefs as it was; 0, or -1 with why (lv_live_error()). */
int lv_live_restore(struct lv_live *l);
/* After lv_model_free(): the reports go with the session. */
void lv_live_free(struct lv_live *l);

#endif /* LV_LIVE_H */
