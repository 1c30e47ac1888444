/*
** repair.c -- a running search repaired after edits to its grid, instead
** of begun again (astar_search_repair; the binding's queries call it
** between steps when the grid changed).
**
** The search's state is a tree: every reached cell has a g, the cost of
** the route its parent links spell, and is open or closed.  An edit at
** cell c can change only the steps near c: a step is decided by its two
** ends, the side cells of a diagonal and, for a unit of size k, every cell
** of the unit at each of those (within k - 1 columns and rows).  So every
** step that reads c has an end within k + 1 columns and rows of c (the
** change's box).  The repair
**   1. resets every reached cell within one more column and row of the box
**      that has a parent (its route may use a changed step), and everything
**      routed through them (their subtrees: the children of a cell are among
**      its neighbours and name it as their parent), taking them off the open
**      list;
**   2. puts back on the open list every surviving reached cell beside a
**      reset one (the reset region is relaxed again from its boundary) and
**      every surviving reached cell in the boxes (a cell that opened, got
**      cheaper or unblocked a diagonal is relaxed from there); for a
**      distance search, also the sources that are not reached and may now
**      be stood on.
** Afterwards every reached cell's g is the cost of a route that exists on
** the grid as it is, and every closed cell's neighbours were relaxed from
** it on the grid as it is (or it is open again): the state of an A* search
** with reopening on the new grid, from which it finishes with the same
** costs as a fresh search (an admissible heuristic finds the optimum either
** way).  An edit whose boxes hold no reached cell changes nothing here:
** the search goes on as it was.
**
** The cost is paid by the call: the cells in the boxes, the cells reset
** (each once) and their neighbours, and a heap operation for each cell put
** back; the expansions that follow are the search's own.  A repair that
** would reset more than half of the cells the search generated gives up
** (EINVAL: begin again), so it never costs more than about a quarter of
** the restart it replaces on top of it.
*/
#include "lattice.h"

/* The tree parent of reached padded cell p (-1 at a start or source). */
static int32_t qr_parent(const astar_search *s, int32_t p) {
  int32_t d = *parent_at(s, p);
  if (d < 0) return -1;
  return s->reverse ? astar__lat_link_to(s->topo, p, d) : astar__lat_link_from(s->topo, p, d);
}

/* Whether the search's unit may stand at padded cell p (as search.c's
** open_for: passable and not forbidden, every cell of a sized unit). */
static int qr_stands(const astar_search *s, const astar_grid *gr, int32_t p) {
  if (s->q.size > 1) return s->ops->units->holds(s, p);
  return !gr->blocked[p] &&
         !(s->shuts && filter_forbids(&s->q, lat_ext(gr, p), lat_tag(gr, p)));
}

/* The kinds of search a repair serves: A* (no jump points), and the
** answer independent of the order of expansions (weight <= 1, stop =
** "expand", no budgets, no partial paths, nothing recorded, no callback);
** on a grid, built-in admissible estimates (a graph's repair checks its
** own: astar__graph_repair). */
static int qr_repairable(const astar_search *s) {
  const astar_query *q = &s->q;
  int h = q->heuristic;
  if (s->jps || q->cost_fn != NULL || h == ASTAR_H_CALLBACK) return 0;
  if (!(q->weight <= 1.0) || q->stop != ASTAR_STOP_EXPAND || q->max_expansions != 0 ||
      q->max_cost != HUGE_VAL || q->track_best || q->record_trace || q->record_visited)
    return 0;
  if (!(astar_topology_abilities(s->topo) & ASTAR_CAN_CELLS)) return 1;
  if (h == ASTAR_H_BISECTOR || h == ASTAR_H_FULL_BISECTOR) return 0;
  /* manhattan overestimates a diagonal step: only the default where it is */
  return h != ASTAR_H_MANHATTAN || h == s->ops->default_heuristic(s->topo);
}

/* Takes reached cell p off the open list (or the bypass slot) and out of
** the search (it loses its route), and queues it.  Its parent link stays:
** its children are found by it.  EINVAL once more than `most` cells were
** reset: beginning again is cheaper then. */
int astar__repair_reset(astar_search *s, int32_t p, size_t *n, size_t most) {
  astar_node *nd = node_at(s, p);
  if (*n >= most) return ASTAR_EINVAL;
  if (nd->pos >= 0) heap_remove(s, &s->open, (size_t)nd->pos, 0);
  else if (nd->pos == POS_NEXT) s->next.node = -1;
  nd->stamp = 0; /* never a live generation */
  nd->pos = POS_CLOSED;
  if (astar__grow(s->alloc, s->ud, (void **)&s->ids, &s->ids_cap, *n + 1, sizeof(int32_t)))
    return ASTAR_ENOMEM;
  s->ids[(*n)++] = p;
  return ASTAR_OK;
}

/* Puts reached, closed cell p back on the open list at its g. */
int astar__repair_reopen(astar_search *s, int32_t p) {
  astar_node *nd;
  double h, f;
  /* closed, or imported from a distance field (lattice.c) */
  if (!node_seen(s, p) || (nd = node_at(s, p))->pos >= 0 || nd->pos == POS_NEXT) return ASTAR_OK;
  h = s->goal >= 0 ? s->ops->estimate(s, p) : 0.0;
  f = s->q.weight == 1.0 ? nd->g + h : nd->g + s->q.weight * h;
  s->st.reopened++;
  s->st.generated++;
  return heap_push(s, &s->open, p, f, tie_key(s, h), 0);
}

/* The change's box, one wider (what step 1 resets): its bounds inside
** the grid. */
static void qr_box(const astar_grid *gr, int32_t c, int32_t r, int32_t *x0, int32_t *y0,
                   int32_t *x1, int32_t *y1) {
  int32_t cx = c % gr->w, cy = c / gr->w;
  *x0 = cx - r < 0 ? 0 : cx - r;
  *y0 = cy - r < 0 ? 0 : cy - r;
  *x1 = cx + r >= gr->w ? gr->w - 1 : cx + r;
  *y1 = cy + r >= gr->h ? gr->h - 1 : cy + r;
}

int astar_search_repair(astar_search *s, const int32_t *changed, size_t nchanged,
                        const astar_query *q, const int32_t *sources, size_t nsources,
                        size_t *nreset) {
  astar_grid *gr;
  const astar_topo_ops *ops;
  int32_t n, r, x, y, x0, y0, x1, y1;
  size_t k, head, nr = 0, most;
  int rc;
  if (nreset) *nreset = 0;
  if (s->status != ASTAR_SEARCHING || s->topo == NULL) return ASTAR_ESTATE;
  if (!qr_repairable(s)) return ASTAR_EINVAL;
  /* the query may name tags the topology gained since (a longer factor
  ** list); nothing else of it may differ */
  if (q->tag_factor != NULL) {
    s->q.tag_factor = q->tag_factor;
    s->q.tag_count = q->tag_count;
  }
  if (!(astar_topology_abilities(s->topo) & ASTAR_CAN_CELLS))
    return astar__graph_repair(s, changed, nchanged, sources, nsources, nreset);
  gr = (astar_grid *)s->topo;
  ops = s->ops;
  n = gr->w * gr->h;
  for (k = 0; k < nchanged; k++)
    if (changed[k] < 0 || changed[k] >= n) return ASTAR_EINVAL;
  for (k = 0; k < nsources; k++)
    if (sources[k] < 0 || sources[k] >= n) return ASTAR_EINVAL;
  s->shuts = s->q.forbid != NULL || filter_forbids_tags(&s->q);
  /* what begin decided from the grid: the fast path ignores costs (a cost
  ** layer may have appeared), a sized unit lists its cells only when costs
  ** or tags vary */
  if (s->run == ops->run[ASTAR_RUN_PLAIN] && !(ops->plain && ops->plain(s->topo)))
    s->run = ops->run[ASTAR_RUN_GENERAL];
  if (s->q.size > 1) {
    if ((rc = ops->units->prepare(s->topo)) != ASTAR_OK) return rc;
    if ((rc = ops->units->begin(s)) != ASTAR_OK) return rc;
  }
  s->status = ASTAR_ESTATE; /* until the state is whole again */
  /* a repair that would reset more than half of what the search reached
  ** (an edit beside its start) gives up: resetting costs about half an
  ** expansion a cell, and the cells must be expanded again anyway */
  most = (size_t)(s->st.generated / 2) + 64;
  r = s->q.size + 2; /* the box (size + 1) and one more */
  /* 1. the cells whose route may use a changed step, and their subtrees */
  for (k = 0; k < nchanged; k++) {
    qr_box(gr, changed[k], r, &x0, &y0, &x1, &y1);
    for (y = y0; y <= y1; y++)
      for (x = x0; x <= x1; x++) {
        int32_t p = LAT_CELL(gr, x, y);
        if (!node_seen(s, p)) continue;
        /* a start or source keeps its g = 0 while it may be stood on */
        if (*parent_at(s, p) < 0 && (s->goal >= 0 || qr_stands(s, gr, p))) continue;
        if ((rc = astar__repair_reset(s, p, &nr, most)) != ASTAR_OK) return rc;
      }
  }
  for (head = 0; head < nr; head++) {
    int32_t v = s->ids[head];
    int par = lat_par_of(gr, v), d;
    for (d = 0; d < gr->ndir; d++) {
      int32_t u = v + gr->off[par][d];
      if (node_seen(s, u) && qr_parent(s, u) == v && (rc = astar__repair_reset(s, u, &nr, most)) != ASTAR_OK)
        return rc;
    }
  }
  /* 2. what the search goes on from */
  for (k = 0; k < nsources; k++) {
    int32_t p = astar__lat_internal(s->topo, sources[k]);
    if (node_seen(s, p) || !qr_stands(s, gr, p)) continue;
    rc = relax_impl(s, p, sources[k], -1, 0.0, 0.0, 0, 0, 0, lat_zero_h);
    if (rc != ASTAR_OK) return rc;
  }
  for (head = 0; head < nr; head++) {
    int32_t v = s->ids[head];
    int par = lat_par_of(gr, v), d;
    for (d = 0; d < gr->ndir; d++)
      if ((rc = astar__repair_reopen(s, v + gr->off[par][d])) != ASTAR_OK) return rc;
  }
  for (k = 0; k < nchanged; k++) {
    qr_box(gr, changed[k], r, &x0, &y0, &x1, &y1);
    for (y = y0; y <= y1; y++)
      for (x = x0; x <= x1; x++)
        if ((rc = astar__repair_reopen(s, LAT_CELL(gr, x, y))) != ASTAR_OK) return rc;
  }
  s->version = s->topo->version;
  s->status = ASTAR_SEARCHING;
  if (nreset) *nreset = nr;
  if (s->goal >= 0) {
    /* the ends, as begin checks them: a start or goal the unit can no
    ** longer stand on, or a goal cut off from the start, is no path */
    if (!qr_stands(s, gr, s->start) || !qr_stands(s, gr, s->goal)) {
      s->status = ASTAR_UNREACHABLE;
    } else if (s->start != s->goal) {
      rc = astar_topology_connected(s->topo, ops->external(s->topo, s->start), s->q.goal);
      if (rc < 0) return s->status = rc;
      if (rc == 0) s->status = ASTAR_UNREACHABLE;
    }
    s->reached = node_seen(s, s->goal);
  }
  return ASTAR_OK;
}
