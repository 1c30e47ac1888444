/*
** secwould.c -- would_disconnect on a grid's sectors (sectors.h): whether
** blocking a cell would separate given cells, answered in scratch without
** touching the grid.
*/
#include <stdlib.h>
#include <string.h>

#include "sectors.h"

typedef struct sec_point {
  int32_t now, after; /* component now, and with the cell blocked */
} sec_point;

static int point_order(const void *a, const void *b) {
  const sec_point *p = (const sec_point *)a, *q = (const sec_point *)b;
  if (p->now != q->now) return p->now < q->now ? -1 : 1;
  return (p->after > q->after) - (p->after < q->after);
}

/*
** Whether blocking cell (x, y) would separate two of the cells ids[0..n)
** (external ids, inside the grid) that are connected now: 1, 0, or
** ENOMEM.  Nothing of the grid changes: its components are brought up to
** date first, as any question does (a grid never edited since it was made
** is labelled then, once), and the hypothesis lives in scratch: the
** cell's sector relabelled into old[], the borders next to the sectors of
** the cell and its neighbours listed again into tmp[], and the sector
** graph joined into uf[] with the sector's nodes renumbered past the
** others.  O(S * S + the sector graph + n log n), never the map.
*/
int astar__sec_would_disconnect(astar_topology *topo, int32_t node, const int32_t *ids,
                                size_t n) {
  astar_grid *gr = (astar_grid *)topo;
  int32_t x = node % gr->w, y = node / gr->w;
  lat_sectors *c;
  sec_hyp h;
  sec_point *pt;
  int32_t p = LAT_CELL(gr, x, y), id = y * gr->w + x, k, v, total, sbase;
  int32_t nearby[LAT_MAXDIR + 1], nnearby = 0, i;
  size_t j;
  int par, d, b, rc, out = 0;
  if (gr->t.comps.valid && gr->t.comps.uniform) gr->t.comps.valid = gr->t.comps.uniform = 0;
  if ((rc = astar__sec_refresh(&gr->t)) != ASTAR_OK) return rc;
  c = gr->sec;
  /* the hypothesis: the cell's mask and its neighbours' */
  h.cell = p;
  h.n = 1;
  h.at[0] = p;
  h.moves[0] = 0;
  par = lat_par(gr, x, y);
  for (d = -1; d < gr->ndir; d++) {
    int32_t q = d < 0 ? p : p + gr->off[par][d], nx = d < 0 ? x : x + gr->ddx[par][d];
    int32_t ny = d < 0 ? y : y + gr->ddy[par][d], t;
    unsigned open = 0;
    int qpar, e;
    if (!LAT_INSIDE(gr, nx, ny)) continue;
    t = sec_of(c, nx, ny); /* the sectors whose borders may change */
    for (i = 0; i < nnearby && nearby[i] != t; i++) continue;
    if (i == nnearby) nearby[nnearby++] = t;
    if (d < 0 || gr->blocked[q]) continue;
    qpar = lat_par(gr, nx, ny);
    for (e = 0; e < gr->ndir; e++) {
      int32_t r = q + gr->off[qpar][e];
      if (r != p && !gr->blocked[r]) open |= 1u << e;
    }
    h.at[h.n] = q;
    h.moves[h.n++] = (unsigned char)lat_rule_moves(gr, open);
  }
  /* the common case first: the cell's neighbours of its component still
  ** joined among themselves (every move the block unmakes joins two of
  ** them, or touches the cell): nothing but the cell itself separates */
  {
    int32_t mine = sec_glabel(gr, c, id), nb[LAT_MAXDIR];
    int up[LAT_MAXDIR], nn = 0, a, e, joined = 1;
    for (i = 1; i < h.n; i++)
      if (sec_glabel(gr, c, lat_ext(gr, h.at[i])) == mine) {
        nb[nn] = h.at[i];
        up[nn] = nn;
        nn++;
      }
    for (a = 0; a < nn; a++) {
      unsigned mv = sec_moves(gr, &h, nb[a]);
      int apar = lat_par_of(gr, nb[a]);
      for (d = 0; mv != 0; d++, mv >>= 1)
        for (e = 0; (mv & 1u) && e < nn; e++)
          if (nb[a] + gr->off[apar][d] == nb[e]) {
            int ra = a, rb = e;
            while (up[ra] != ra) ra = up[ra];
            while (up[rb] != rb) rb = up[rb];
            if (ra != rb) up[ra > rb ? ra : rb] = ra < rb ? ra : rb;
          }
    }
    for (a = 1; a < nn && joined; a++) {
      int r = a;
      while (up[r] != r) r = up[r];
      if (r != 0) joined = 0;
    }
    if (joined) { /* only the cell: apart from the points joined to it now */
      int self = 0, other = 0;
      for (j = 0; j < n; j++) {
        if (ids[j] == id) self = 1;
        else if (sec_glabel(gr, c, ids[j]) == mine) other = 1;
      }
      return self && other;
    }
  }
  h.s = sec_of(c, x, y);
  h.scr = c->old;
  k = astar__sec_label(gr, c, &h, h.s);
  /* the scratch graph: the sector's k nodes after every other node */
  sbase = c->base[c->n];
  total = sbase + k;
  pt = (sec_point *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, n * sizeof *pt);
  if (pt == NULL || astar__grow(gr->t.alloc, gr->t.ud, (void **)&c->uf, &c->ucap,
                                (size_t)total + 1, sizeof(int32_t))) {
    astar__mem(gr->t.alloc, gr->t.ud, pt, pt ? n * sizeof *pt : 0, 0);
    return ASTAR_ENOMEM;
  }
  for (v = 0; v < total; v++) c->uf[v] = v;
  for (v = 0; v < c->n; v++)
    for (b = 0; b < B_COUNT; b++) {
      int32_t t = sec_across(c, v, b), np, q, bs, bt;
      const sec_pair *pp;
      int redo = 0;
      if (t < 0) continue;
      for (i = 0; i < nnearby; i++)
        if (nearby[i] == v || nearby[i] == t) redo = 1;
      if (redo) {
        np = astar__sec_border(gr, c, &h, v, b, c->tmp, c->pcap);
        pp = c->tmp;
      } else {
        np = c->npairs[v * B_COUNT + b];
        pp = sec_pairs(c, v, b);
      }
      bs = v == h.s ? sbase : c->base[v];
      bt = t == h.s ? sbase : c->base[t];
      for (q = 0; q < np; q++) uf_join(c->uf, bs + pp[q].a, bt + pp[q].b);
    }
  /* each point's component now and under the hypothesis (a blocked one is
  ** in none: a number of its own, negative; the cell is apart from every
  ** other point, never from itself) */
  for (j = 0; j < n; j++) {
    int32_t e = ids[j], ex = e % gr->w, ey = e / gr->w, es = sec_of(c, ex, ey);
    uint16_t after = *sec_lab(c, &h, es, ex, ey);
    pt[j].now = sec_glabel(gr, c, e);
    if (pt[j].now < 0) pt[j].now = -1 - (int32_t)j;
    pt[j].after = e == id             ? -1 /* every copy of the cell: one place, apart */
                  : after == LAB_NONE ? -2 - (int32_t)j
                                      : uf_root(c->uf, (es == h.s ? sbase : c->base[es]) + after);
  }
  qsort(pt, n, sizeof *pt, point_order);
  for (j = 1; j < n && !out; j++)
    if (pt[j].now >= 0 && pt[j].now == pt[j - 1].now && pt[j].after != pt[j - 1].after) out = 1;
  astar__mem(gr->t.alloc, gr->t.ud, pt, n * sizeof *pt, 0);
  return out;
}
