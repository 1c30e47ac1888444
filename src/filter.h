/*
** filter.h -- the query's filter, in one place: what makes a node
** impassable or a step dearer for one query alone (tag factors, the penalty
** and forbid arrays; the cost callback is engine.h's query_step, the only
** caller that may run it).  Every search loop (engine.h and the expansions
** that include it), distance field repair (lattice.c), smoothing and the
** any-angle search (anyangle.c) read the query through these, so a
** forbidden node means the same thing to all of them (astar.h, "the
** query's filter").
**
** Plain inline functions of the astar_query: no search state, so the
** segment code, which runs without a search, reads the same rules.
*/
#ifndef ASTAR_FILTER_H
#define ASTAR_FILTER_H

#include <math.h>

#include "astar_int.h"

/* Tag t's factor in q: 1 when none applies; *forbidden set when it forbids
** (a flag, never an infinite cost: a product that overflows is an error,
** not a closed door). */
ASTAR_INLINE double filter_factor(const astar_query *q, int32_t t, int *forbidden) {
  double k;
  *forbidden = 0;
  if (!q->tag_factor || t <= 0 || t >= q->tag_count) return 1.0;
  k = q->tag_factor[t];
  if (k == ASTAR_FORBID) {
    *forbidden = 1;
    return 1.0;
  }
  return k;
}

ASTAR_INLINE int filter_tag_forbids(const astar_query *q, int32_t t) {
  int forbidden;
  (void)filter_factor(q, t, &forbidden);
  return forbidden;
}

/* Whether some tag factor of q forbids: then nodes that carry tags (grid
** cells) can be forbidden by them.  O(tags): once per query. */
ASTAR_INLINE int filter_forbids_tags(const astar_query *q) {
  int32_t t;
  if (q->tag_factor == NULL) return 0;
  for (t = 1; t < q->tag_count; t++)
    if (q->tag_factor[t] == ASTAR_FORBID) return 1;
  return 0;
}

/* Node `ext` (external id) is forbidden by a forbid array (the query's
** forbid field, or one a caller holds apart from its query). */
ASTAR_INLINE int filter_field_forbids(const double *forbid, int32_t ext) {
  return forbid != NULL && forbid[ext] != 0;
}

/* Node `ext` (external id) carrying tag `tag` (0 where nodes carry none) is
** forbidden to q: its forbid entry, or its tag's factor. */
ASTAR_INLINE int filter_forbids(const astar_query *q, int32_t ext, int32_t tag) {
  return filter_field_forbids(q->forbid, ext) || filter_tag_forbids(q, tag);
}

/* The rate of a passable cell of own cost `cost`, tag `tag` (external id
** ext) under q: what a one-unit step into it costs before the callback,
** cost * tag factor + penalty * penalty_scale.  0 and *r: usable; 1: the
** cell is forbidden; -1: the rate is negative or not finite (*r holds it). */
ASTAR_INLINE int filter_rate(const astar_query *q, double cost, int32_t ext, int32_t tag,
                             double *r) {
  int forbidden;
  double k = filter_factor(q, tag, &forbidden);
  if (forbidden || filter_field_forbids(q->forbid, ext)) return 1;
  cost *= k;
  if (q->penalty) cost += q->penalty[ext] * q->penalty_scale;
  *r = cost;
  return cost >= 0 && isfinite(cost) ? 0 : -1;
}

#endif
