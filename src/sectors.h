/*
** sectors.h -- the components of a grid by sector (sectors.c, secwould.c):
** their layout and the helpers both files read.  Internal; see sectors.c's
** header for the scheme.
*/
#ifndef ASTAR_SECTORS_H
#define ASTAR_SECTORS_H

#include <stdlib.h>
#include <string.h>

#include "lattice.h"

#define LAB_NONE 0xffffu /* a blocked cell */
#define LAB_TODO 0xfffeu /* an open cell not labelled yet (a relabel) */

enum { B_E,
       B_S,
       B_SE,
       B_SW,
       B_COUNT }; /* the borders a sector owns */
/* dirty bits: the local labels, then 2 << border, and "in the list" */
enum { D_LOCAL = 1,
       D_COMP = 0x40, /* components changed by an edit (sec_split), labels current */
       D_LISTED = 0x80 };

typedef struct sec_pair {
  uint16_t a, b; /* local components: a in the owner, b in the neighbour */
} sec_pair;

struct lat_sectors {
  int shift;                   /* S = 1 << shift */
  int32_t sw, sh, n;           /* sectors across, down, in all */
  int32_t pcap;                /* most pairs of a sector: 3S (E), 3S (S), 1, 1 */
  uint16_t *label;             /* n * S * S local labels: each sector's S rows of S
                     ** together (a relabel reads and writes one block,
                     ** not S rows a grid row apart), LAB_NONE outside */
  unsigned char *lm;           /* S * S: a relabel's copy of the sector's moves,
                      ** those leaving the sector taken out */
  int32_t loff[2][LAT_MAXDIR]; /* a move inside the block, by parity */
  unsigned char keep[2][4];    /* the moves that stay in on a sector's W, E, N, S edge */
  uint16_t *ncomp;             /* n: local components per sector */
  uint16_t *nlocal;            /* n: edits sec_local wrote since the sector's labels */
  int32_t *base;               /* n + 1: the sector's first node in the graph */
  sec_pair *pairs;             /* the pool: each sector's pairs together, E, S, SE,
                               ** SW, in a chunk of room proom[s] at poff[s] */
  size_t pool, pused;          /* the pool's room and its end, in pairs */
  int32_t *poff;               /* n */
  uint16_t *proom;             /* n */
  uint16_t *npairs;            /* n * B_COUNT */
  unsigned char *dirty;
  int32_t *dlist, ndirty; /* the dirty sectors, each once */
  int32_t *glabel;        /* per sector node: its component's root */
  size_t gcap;
  int regraph_due; /* the graph's relabel ran out of memory */
  int32_t *uf;     /* would_disconnect's union-find */
  size_t ucap;
  int32_t *stack;    /* 2 * S * S: a relabel's flood; a split's cells and links */
  uint16_t *old;     /* S * S: a sector's labels before its relabel, or
                      ** a hypothesis' labels (the same layout) */
  sec_pair *tmp;     /* 3S: a border's pairs before its rebuild */
  uint32_t relabels; /* sector relabels so far (tests) */
  uint32_t regraphs; /* sector graph relabels so far (tests) */
};

/* The hypothesis of would_disconnect: cell `cell` (padded) blocked, the
** move masks it changes (its own and its neighbours'), and the labels of
** its sector `s` under it, in a scratch block (scr) laid out as the
** sector's own. */
typedef struct sec_hyp {
  int32_t cell;
  int n;
  int32_t at[LAT_MAXDIR + 1];
  unsigned char moves[LAT_MAXDIR + 1];
  int32_t s;
  uint16_t *scr;
} sec_hyp;

ASTAR_INLINE size_t sec_size(const lat_sectors *c) { return (size_t)1 << c->shift; }

/* The move mask of padded cell p, under the hypothesis h (NULL: as is). */
ASTAR_INLINE unsigned sec_moves(const astar_grid *gr, const sec_hyp *h, int32_t p) {
  int i;
  if (h != NULL)
    for (i = 0; i < h->n; i++)
      if (h->at[i] == p) return h->moves[i];
  return gr->moves[p];
}

ASTAR_INLINE int32_t sec_of(const lat_sectors *c, int32_t x, int32_t y) {
  return (y >> c->shift) * c->sw + (x >> c->shift);
}

/* Cell (x, y)'s place in its sector's block of labels. */
ASTAR_INLINE size_t sec_at(const lat_sectors *c, int32_t x, int32_t y) {
  int32_t m = (1 << c->shift) - 1;
  return (size_t)((y & m) << c->shift | (x & m));
}

/* Cell (x, y)'s label: in the label array, or in the hypothesis' scratch
** when (x, y) is in its sector s. */
ASTAR_INLINE size_t sec_idx(const lat_sectors *c, int32_t x, int32_t y) {
  return ((size_t)sec_of(c, x, y) << (2 * c->shift)) + sec_at(c, x, y);
}

ASTAR_INLINE uint16_t *sec_lab(lat_sectors *c, const sec_hyp *h, int32_t s, int32_t x, int32_t y) {
  if (h != NULL && s == h->s) return &h->scr[sec_at(c, x, y)];
  return &c->label[sec_idx(c, x, y)];
}

/* The neighbour of sector s across its border b, -1 when none. */
ASTAR_INLINE int32_t sec_across(const lat_sectors *c, int32_t s, int b) {
  int32_t i = s % c->sw, j = s / c->sw;
  static const int di[B_COUNT] = {1, 0, 1, -1}, dj[B_COUNT] = {0, 1, 1, 1};
  i += di[b];
  j += dj[b];
  if (i < 0 || i >= c->sw || j >= c->sh) return -1;
  return j * c->sw + i;
}

ASTAR_INLINE sec_pair *sec_pairs(const lat_sectors *c, int32_t s, int b) {
  const uint16_t *np = c->npairs + (size_t)s * B_COUNT;
  size_t at = (size_t)c->poff[s];
  int i;
  for (i = 0; i < b; i++) at += np[i];
  return c->pairs + at;
}

/* The pairs of sector s in all. */
ASTAR_INLINE int32_t sec_npairs(const lat_sectors *c, int32_t s) {
  const uint16_t *np = c->npairs + (size_t)s * B_COUNT;
  return (int32_t)np[0] + np[1] + np[2] + np[3];
}

ASTAR_INLINE void sec_dirty(lat_sectors *c, int32_t s, unsigned bits) {
  if (!(c->dirty[s] & D_LISTED)) c->dlist[c->ndirty++] = s;
  c->dirty[s] |= (unsigned char)(bits | D_LISTED);
}

/* Marks the border between sectors a and b (adjacent, a != b). */
ASTAR_INLINE void sec_mark_border(lat_sectors *c, int32_t a, int32_t b) {
  int32_t di = b % c->sw - a % c->sw, dj = b / c->sw - a / c->sw;
  if (dj < 0 || (dj == 0 && di < 0)) { /* the other one owns it */
    int32_t t = a;
    a = b;
    b = t;
    di = -di;
    dj = -dj;
  }
  sec_dirty(c, a, 2u << (dj == 0 ? B_E : di == 0 ? B_S
                                     : di > 0    ? B_SE
                                                 : B_SW));
}

/* The rectangle of sector s: columns x0..x1 - 1, rows y0..y1 - 1. */
ASTAR_INLINE void sec_rect(const astar_grid *gr, const lat_sectors *c, int32_t s, int32_t *x0,
                           int32_t *y0, int32_t *x1, int32_t *y1) {
  int32_t k = (int32_t)sec_size(c);
  *x0 = (s % c->sw) * k;
  *y0 = (s / c->sw) * k;
  *x1 = *x0 + k < gr->w ? *x0 + k : gr->w;
  *y1 = *y0 + k < gr->h ? *y0 + k : gr->h;
}

ASTAR_INLINE int32_t uf_root(int32_t *p, int32_t v) {
  while (p[v] != v) {
    p[v] = p[p[v]]; /* path halving: parents stay smaller */
    v = p[v];
  }
  return v;
}

ASTAR_INLINE void uf_join(int32_t *p, int32_t a, int32_t b) {
  a = uf_root(p, a);
  b = uf_root(p, b);
  if (a < b) p[b] = a;
  else if (b < a) p[a] = b;
}
/* The sector graph's label of external cell id (-1: blocked); current. */
ASTAR_INLINE int32_t sec_glabel(const astar_grid *gr, const lat_sectors *c, int32_t id) {
  int32_t x = id % gr->w, y = id / gr->w, s = sec_of(c, x, y);
  uint16_t l = c->label[sec_idx(c, x, y)];
  return l == LAB_NONE ? -1 : c->glabel[c->base[s] + l];
}

ASTAR_INTERNAL_BEGIN /* hidden, see astar_int.h */
    /* sectors.c */
    int32_t
    astar__sec_label(const astar_grid *gr, lat_sectors *c, const sec_hyp *h, int32_t s);
int32_t astar__sec_border(const astar_grid *gr, lat_sectors *c, const sec_hyp *h, int32_t s, int b,
                          sec_pair *out, int32_t most);
int astar__sec_refresh(astar_topology *t);
/* secwould.c */
int astar__sec_would_disconnect(astar_topology *topo, int32_t node, const int32_t *ids, size_t n);

ASTAR_INTERNAL_END

#endif
