/*
** lfield.c -- fields: a number per grid cell, kept inside the userdata (the
** collector sees their size, a search reads them without a copy).  Danger
** maps for the penalty and forbid options, visibility from
** grid:visible_from, and distance fields from grid:distances, which also
** know the next step toward the nearest source.  Included by lastar.c.
**
** A field used by a running search is locked (its values are part of the
** search's costs: "field is being searched"), and every change bumps its
** version, so a time-sliced query notices a field changed between steps.
*/

#define FIELD_MT "astar.Field"

/* How many changes a field remembers the box of, so that a query reading
** it as its penalty or forbid field repairs its search after them
** (lquery.c's query_repair) instead of beginning again. */
#define FIELD_BOXES 16

typedef struct field_box {
  int32_t x0, y0, x1, y1; /* the cells a change may have touched, inclusive */
} field_box;

typedef struct lfield {
  lobj o; /* holds and locks; no C memory of its own */
  int32_t w, h;
  int distances;                            /* made by distances(): next[] follows v[] */
  uint32_t version;                         /* bumped by every change */
  field_box box[FIELD_BOXES];               /* change number v's box at v % FIELD_BOXES */
  ltopo *grid;                              /* distances: its grid (kept alive by the
                                ** user value) ... */
  uint32_t grid_version;                    /* ... and that grid's version then */
  int reverse;                              /* distances: toward the sources (1) or from */
  struct lfield *penalty, *forbid;          /* distances: the option fields used
                                ** (kept by the user value's options) ... */
  uint32_t penalty_version, forbid_version; /* ... and their versions then */
  const lcells_ops *cells;                  /* add_disc measures in its grid's metric */
  int metric;                               /* ... with this (kept: the field may
                                ** outlive its grid) */
  double v[];                               /* w * h values, cell id order (y * w + x) */
} lfield;

/* A change of the cells in the box (x0, y0)-(x1, y1): a new version,
** and its box remembered. */
static void field_changed(lfield *F, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  field_box *b = &F->box[++F->version % FIELD_BOXES];
  b->x0 = x0;
  b->y0 = y0;
  b->x1 = x1;
  b->y1 = y1;
}

/* The cells (ids, y * w + x) the changes after version `since` may have
** touched, appended to out[*n..most): 1, or 0 when the boxes do not reach
** back that far or hold more cells than there is room for (the caller
** begins again).  A cell may be listed twice. */
static int field_changes(const lfield *F, uint32_t since, int32_t *out, size_t *n, size_t most) {
  uint32_t v;
  if (F->version - since > FIELD_BOXES) return 0;
  for (v = since + 1; v != F->version + 1; v++) {
    const field_box *b = &F->box[v % FIELD_BOXES];
    int32_t x, y;
    if ((size_t)(b->x1 - b->x0 + 1) * (size_t)(b->y1 - b->y0 + 1) > most - *n) return 0;
    for (y = b->y0; y <= b->y1; y++)
      for (x = b->x0; x <= b->x1; x++) out[(*n)++] = y * F->w + x;
  }
  return 1;
}

/* Distance fields: the next cell toward the nearest source (-1: none). */
static int32_t *field_next(lfield *F) {
  return (int32_t *)(void *)((char *)F->v + (size_t)F->w * (size_t)F->h * sizeof(double));
}

/* Distance fields: the step by which each cell was reached (its
** astar_search_link; -1 at sources and unreached cells), for update(). */
static signed char *field_link(lfield *F) {
  return (signed char *)(field_next(F) + (size_t)F->w * (size_t)F->h);
}

/* A distance field is stale once its grid, or a penalty or forbid field
** its costs came from, changed since it was computed. */
static int field_stale(lfield *F) {
  return F->distances && F->grid != NULL &&
         ((F->grid->t != NULL && astar_topology_version(F->grid->t) != F->grid_version) ||
          (F->penalty && F->penalty->version != F->penalty_version) ||
          (F->forbid && F->forbid->version != F->forbid_version));
}

/* How many changes a grid remembers for its distance fields: a field
** older than that many changes is recomputed by update(). */
#define FIELD_CHANGE_LOG TOPO_CHANGE_LOG

/* Copies a finished distance search's costs, next cells and links (after
** a repair, the cells it changed): the core writes them in one pass. */
static void field_fill_distances(lfield *F, ltopo *T, const astar_search *s) {
  (void)astar_grid_export_distances(s, T->grid, F->v, field_next(F), field_link(F));
}

static void field_release(lobj *o) { (void)o; }

static lfield *check_field(lua_State *L, int idx) {
  lfield *F = (lfield *)check_ud(L, idx, FIELD_MT);
  if (F->o.closed) closed_error(L, "field");
  return F;
}

/* field:close() and __close (local f <close> = astar.field(g)): a field has
** no C memory of its own, so closing only ends its use: from then on, for
** everyone, "attempt to use a closed field" (a search reading it finishes
** first: obj_close waits for its holders).  Idempotent. */
static int l_field_close(lua_State *L) {
  obj_close(&((lfield *)check_ud(L, 1, FIELD_MT))->o);
  return 0;
}

/* A field method that changes values: not while a search reads them. */
static lfield *check_field_mutable(lua_State *L, int idx) {
  lfield *F = check_field(L, idx);
  if (F->o.locks > 0) raise_error(L, "cannot call '%s': field is being searched", fname_of(L));
  return F;
}

/* Pushes a new w x h field of the (open) grid at gidx, every value `init`;
** with distances, room for the next cells too.  The user value keeps the
** grid. */
static lfield *field_new(lua_State *L, int gidx, int32_t w, int32_t h, double init,
                         int distances) {
  size_t i, n = (size_t)w * (size_t)h;
  lfield *F = (lfield *)compat_newud(L, offsetof(lfield, v) + n * sizeof(double) +
                                            (distances ? n * (sizeof(int32_t) + 1) : 0));
  obj_init(&F->o, get_state(L), field_release);
  F->w = w;
  F->h = h;
  F->distances = distances;
  F->version = 0;
  F->grid = NULL;
  F->grid_version = 0;
  F->reverse = 0;
  F->penalty = F->forbid = NULL;
  F->penalty_version = F->forbid_version = 0;
  {
    ltopo *T = (ltopo *)lua_touserdata(L, gidx);
    F->cells = T->cls->cells;
    F->metric = F->cells->metric(T->grid);
  }
  for (i = 0; i < n; i++) F->v[i] = init;
  luaL_getmetatable(L, FIELD_MT);
  lua_setmetatable(L, -2);
  set_owner(L, gidx, "grid");
  return F;
}

/* 1-based x at arg, y at arg + 1 in a w x h area -> 0-based cell id (and
** coordinates). */
static int32_t check_coords(lua_State *L, int arg, int32_t w, int32_t h, int32_t *px,
                            int32_t *py) {
  int32_t x = check_range(L, arg, "x", 1, w) - 1;
  int32_t y = check_range(L, arg + 1, "y", 1, h) - 1;
  if (px) *px = x;
  if (py) *py = y;
  return y * w + x;
}

/* astar.field(grid [, value]) -> a field of that grid's size (square or
** hex: any topology of cells). */
static int l_field_new(lua_State *L) {
  const ltopo_class *cls = topo_class_of(L, 1);
  ltopo *T;
  int32_t w, h;
  double init;
  if (cls == NULL) type_error(L, 1, GRID_MT " or " HEX_MT);
  T = check_topo(L, 1, cls);
  if (!T->cls->shape(T, &w, &h)) type_error(L, 1, GRID_MT " or " HEX_MT);
  init = lua_isnoneornil(L, 2) ? 0 : check_finite(L, 2, "value");
  field_new(L, 1, w, h, init, 0);
  return 1;
}

static int l_field_get(lua_State *L) {
  lfield *F = check_field(L, 1);
  lua_pushnumber(L, F->v[check_coords(L, 2, F->w, F->h, NULL, NULL)]);
  return 1;
}

static int l_field_set(lua_State *L) {
  lfield *F = check_field_mutable(L, 1);
  int32_t c = check_coords(L, 2, F->w, F->h, NULL, NULL);
  double v = check_finite(L, 4, "value");
  if (F->v[c] == v) return 0; /* the same value: no change, no new version */
  F->v[c] = v;
  field_changed(F, c % F->w, c / F->w, c % F->w, c / F->w);
  return 0;
}

static int l_field_fill(lua_State *L) {
  lfield *F = check_field_mutable(L, 1);
  double v = check_finite(L, 2, "value");
  size_t i, n = (size_t)F->w * (size_t)F->h;
  int changed = 0;
  for (i = 0; i < n; i++) {
    changed |= F->v[i] != v;
    F->v[i] = v;
  }
  if (changed) field_changed(F, 0, 0, F->w - 1, F->h - 1); /* else no change */
  return 0;
}

/* The cells add_disc covers: every cell within `radius` of (cx, cy) in the
** metric of the field's grid (whose centre is within radius on a square
** grid, at most radius steps away on a hex grid: a hexagon; a cell within r
** is at most r columns and r rows off in either).  With write, adds v to
** each; without, only looks.  Returns the first cell (row order) whose
** value is finite and would not be after adding v, -1 when none: add_disc
** looks before it writes, so a refused call leaves every value as it was.
** (Distance fields hold inf where no source is reached; those stay inf,
** which is no change of kind.) */
static int32_t disc_apply(lfield *F, int32_t cx, int32_t cy, double radius, double v,
                          int write) {
  int32_t r = radius > 2.0 * ASTAR_GRID_MAX_SIDE ? 2 * ASTAR_GRID_MAX_SIDE : (int32_t)radius;
  int32_t x0 = cx - r < 0 ? 0 : cx - r, x1 = cx + r >= F->w ? F->w - 1 : cx + r;
  int32_t y0 = cy - r < 0 ? 0 : cy - r, y1 = cy + r >= F->h ? F->h - 1 : cy + r;
  int32_t x, y;
  for (y = y0; y <= y1; y++)
    for (x = x0; x <= x1; x++) {
      size_t i = (size_t)y * (size_t)F->w + (size_t)x;
      if (!F->cells->within(F->metric, cx, cy, x, y, radius)) continue;
      if (write) F->v[i] += v;
      else if (isfinite(F->v[i]) && !isfinite(F->v[i] + v)) return (int32_t)i;
    }
  return -1;
}

/* field:add_disc(x, y, radius, value): adds value to the cells of the disc
** (disc_apply); refuses, changing nothing, when a value would stop being
** finite (a penalty field must keep penalty * penalty_scale finite, and
** set and fill refuse such values too). */
static int l_field_add_disc(lua_State *L) {
  lfield *F = check_field_mutable(L, 1);
  int32_t cx, cy, bad;
  double radius, v;
  check_coords(L, 2, F->w, F->h, &cx, &cy);
  radius = check_cost(L, 4, "radius");
  v = check_finite(L, 5, "value");
  bad = disc_apply(F, cx, cy, radius, v, 0);
  if (bad >= 0) {
    const char *held = describe_number(L, F->v[bad]);
    const char *added = describe(L, 5);
    const char *sum = describe_number(L, F->v[bad] + v);
    return arg_error(L, 5, lua_pushfstring(L, "cell (%d, %d) holds %s: adding %s would make it "
                                              "%s (field values must stay finite)",
                                           (int)(bad % F->w + 1), (int)(bad / F->w + 1), held, added, sum));
  }
  if (v == 0) return 0; /* adds nothing: no change, no new version */
  disc_apply(F, cx, cy, radius, v, 1);
  {
    int32_t r = radius > 2.0 * ASTAR_GRID_MAX_SIDE ? 2 * ASTAR_GRID_MAX_SIDE : (int32_t)radius;
    field_changed(F, cx - r < 0 ? 0 : cx - r, cy - r < 0 ? 0 : cy - r,
                  cx + r >= F->w ? F->w - 1 : cx + r, cy + r >= F->h ? F->h - 1 : cy + r);
  }
  return 0;
}

static int l_field_size(lua_State *L) {
  lfield *F = check_field(L, 1);
  lua_pushinteger(L, F->w);
  lua_pushinteger(L, F->h);
  return 2;
}

/*
** field:next_step(x, y) -> x2, y2: on a field made by grid:distances, the
** neighbour to move to on a cheapest route toward the nearest source (with
** the modifiers the distances used); nothing at a source or where no source
** can be reached.  A stale field (its grid changed since: its routes may
** lead into new walls) raises: call field:update() first.
*/
static int l_field_next_step(lua_State *L) {
  lfield *F = check_field(L, 1);
  int32_t c = check_coords(L, 2, F->w, F->h, NULL, NULL), next;
  if (!F->distances) return raise_error(L, "next_step needs a field made by grid:distances");
  if (field_stale(F))
    return raise_error(L, "field is stale (the grid changed since it was computed); "
                          "call field:update()");
  next = field_next(F)[c];
  if (next < 0) return 0;
  lua_pushinteger(L, next % F->w + 1);
  lua_pushinteger(L, next / F->w + 1);
  return 2;
}

/* field:stale() -> true once the grid (or a penalty or forbid field the
** distances used) changed since the field was computed; false for fields
** that are not distance fields. */
static int l_field_stale(lua_State *L) {
  lua_pushboolean(L, field_stale(check_field(L, 1)));
  return 1;
}

/* field:version() -> a number that changes with every change of the
** field's values (a set, fill or add_disc that changes nothing keeps it):
** what a caller that watches paths made with the field compares. */
static int l_field_version(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)check_field(L, 1)->version);
  return 1;
}

/* __tostring works on a closed field too (it says so). */
static int l_field_tostring(lua_State *L) {
  lfield *F = (lfield *)check_ud(L, 1, FIELD_MT);
  if (F->o.closed) lua_pushliteral(L, "astar.Field (closed)");
  else lua_pushfstring(L, "astar.Field (%dx%d)", (int)F->w, (int)F->h);
  return 1;
}
