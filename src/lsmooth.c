/*
** lsmooth.c -- paths off the lattice on square grids: path.points from
** smoothing (the smooth option, grid:smooth) and any-angle searches (the
** any_angle option), and world coordinates (cell_size, origin, to_world,
** to_cell).  The geometry and the searches are the core's (anyangle.c);
** this file turns them into Lua values.  Included by lastar.c after
** lgrid.c.
**
** Points are cell centres given as cell coordinates {x, y} (1-based, the
** cells' own numbers): (x, y) means the centre of cell (x, y), which
** grid:to_world turns into world units.
*/

/* Raises the message for a bad rate found while pricing segments: the cell
** and its cost per unit of length. */
static int rate_error(lua_State *L, ltopo *T, int32_t cell, double value) {
  int32_t w = astar_grid_width(T->grid);
  const char *v = describe_number(L, value);
  return raise_error(L, "cell (%d, %d) would cost %s per unit of length (penalty * "
                        "penalty_scale and tag factors must keep costs finite and >= 0)",
                     (int)(cell % w + 1), (int)(cell / w + 1), v);
}

/* Pushes the list of points {x, y} for the cells cells[keep[i]] (keep NULL:
** every cell), i < m. */
static void push_points(lua_State *L, ltopo *T, const int32_t *cells, const int32_t *keep,
                        int32_t m) {
  int32_t w = astar_grid_width(T->grid), i;
  lua_createtable(L, m, 0);
  for (i = 0; i < m; i++) {
    int32_t c = cells[keep ? keep[i] : i];
    lua_createtable(L, 2, 0);
    lua_pushinteger(L, c % w + 1);
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, c / w + 1);
    lua_rawseti(L, -2, 2);
    lua_rawseti(L, -2, i + 1);
  }
}

/* Smooths cells[0..n-1] (b->nodes) under query q and pushes the points.
** b->links holds the kept indices afterwards (the caller is done with the
** path's links). */
static void smooth_cells(lua_State *L, lcall *C, ltopo *T, lsbuf *b, const astar_query *q,
                         int32_t n) {
  int32_t bad = -1, m;
  double value = 0;
  b->links = (int32_t *)sbuf_grow(L, C->M, b->links, &b->links_cap, (size_t)n, sizeof(int32_t));
  b->work = (double *)sbuf_grow(L, C->M, b->work, &b->work_cap, (size_t)n, sizeof(double));
  m = astar_grid_smooth(T->grid, q, b->nodes, n, b->links, b->work, &bad, &value);
  if (m == ASTAR_ECOST) rate_error(L, T, bad, value);
  if (m < 0) raise_error(L, "%s: %s", fname_of(L), astar_status_name(m));
  push_points(L, T, b->nodes, b->links, m);
}

/* path.points for a grid path of len cells in b->nodes, when the query
** asked (lresult.c calls it with the path table on top). */
static void grid_path_points(lua_State *L, lcall *C, ltopo *T, lsbuf *b, const lopts *o,
                             int32_t len) {
  if (!o->smooth || len < 1) return;
  smooth_cells(L, C, T, b, &o->q, len);
  lua_setfield(L, -2, "points");
}

/* ------------------------------------------------------------------------ */
/* any-angle searches                                                         */
/* ------------------------------------------------------------------------ */

/* The any-angle state of b, made on first use. */
static astar_theta *theta_of(lua_State *L, lcall *C, lsbuf *b) {
  if (b->th == NULL) {
    b->th = astar_theta_new(state_alloc, C->M);
    if (b->th == NULL) status_error(L, ASTAR_ENOMEM);
  }
  return b->th;
}

/* Raises for a core error of an any-angle search; a cost that overflows
** raises what A* raises (search_error_info's wording). */
static int theta_error(lua_State *L, ltopo *T, astar_theta *th, int rc) {
  double value = 0;
  int32_t cell = astar_theta_bad(th, &value);
  if (rc == ASTAR_ECOST) return rate_error(L, T, cell, value);
  if (rc == ASTAR_EOVERFLOW) {
    astar_error_info e;
    e.cause = ASTAR_CAUSE_SUM;
    e.node = cell;
    e.from = e.link = -1;
    e.value = value;
    return search_error_info(L, T, &e, rc);
  }
  if (rc == ASTAR_ECHANGED)
    return raise_error(L, "the grid changed since this query began (start a new query)");
  return status_error(L, rc);
}

/* expanded / reopened / generated (and visited) of an any-angle search. */
static void push_theta_stats(lua_State *L, astar_theta *th, const lopts *o) {
  const astar_stats *st = astar_theta_stats(th);
  set_int(L, "expanded", (double)st->expanded);
  set_int(L, "reopened", 0);
  set_int(L, "generated", (double)st->generated);
  if (o->visited) {
    size_t n, i;
    const int32_t *v = astar_theta_visited(th, &n);
    lua_createtable(L, (int)n, 0);
    for (i = 0; i < n; i++) {
      lua_pushinteger(L, (lua_Integer)v[i] + 1);
      lua_rawseti(L, -2, (int)i + 1);
    }
    lua_setfield(L, -2, "visited");
  }
}

typedef struct cell_list {
  int32_t *cells, n, w;
} cell_list;

/* Collects the cells a segment passes through (not the corner cells beside
** it), skipping a repeat of the last one (segments share their ends). */
static int collect_cell(void *ctx, int32_t x, int32_t y, double len, int corner) {
  cell_list *l = (cell_list *)ctx;
  int32_t c = y * l->w + x;
  (void)len;
  if (corner || (l->n > 0 && l->cells[l->n - 1] == c)) return 0;
  l->cells[l->n++] = c;
  return 0;
}

/* Pushes the path of an any-angle search to `to`: points (the turning
** cells), nodes (every cell along the segments: a contiguous cell path),
** cost, length, width, then the statistics. */
static void push_theta_path(lua_State *L, lcall *C, ltopo *T, lsbuf *b, const lopts *o,
                            int32_t to) {
  astar_theta *th = b->th;
  int32_t n = astar_theta_points(th, to, NULL, NULL, NULL), w = astar_grid_width(T->grid), i;
  size_t bound = 1;
  double cost, length;
  cell_list l;
  if (n < 0) status_error(L, n);
  b->links = (int32_t *)sbuf_grow(L, C->M, b->links, &b->links_cap, (size_t)n, sizeof(int32_t));
  n = astar_theta_points(th, to, b->links, &cost, &length); /* refined: fewer */
  for (i = 1; i < n; i++) {
    int32_t ax = b->links[i] % w - b->links[i - 1] % w, ay = b->links[i] / w - b->links[i - 1] / w;
    bound += (size_t)(ax < 0 ? -ax : ax) + (size_t)(ay < 0 ? -ay : ay);
  }
  b->nodes = (int32_t *)sbuf_grow(L, C->M, b->nodes, &b->nodes_cap, bound, sizeof(int32_t));
  l.cells = b->nodes;
  l.n = 0;
  l.w = w;
  if (n == 1) l.cells[l.n++] = b->links[0];
  for (i = 1; i < n; i++)
    astar_grid_walk(T->grid, b->links[i - 1] % w, b->links[i - 1] / w, b->links[i] % w,
                    b->links[i] / w, collect_cell, &l);
  lua_createtable(L, 0, 11);
  lua_pushnumber(L, cost);
  lua_setfield(L, -2, "cost");
  lua_pushnumber(L, length);
  lua_setfield(L, -2, "length");
  lua_pushinteger(L, (lua_Integer)astar_topology_version(T->t));
  lua_setfield(L, -2, "version");
  lua_createtable(L, l.n, 0);
  for (i = 0; i < l.n; i++) {
    lua_pushinteger(L, (lua_Integer)l.cells[i] + 1);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "nodes");
  push_points(L, T, b->links, NULL, n);
  lua_setfield(L, -2, "points");
  lua_pushinteger(L, w);
  lua_setfield(L, -2, "width");
  push_path_mt(L, T);
  lua_setmetatable(L, -2);
  push_theta_stats(L, th, o);
}

/* push_outcome for an any-angle search. */
static int push_theta_outcome(lua_State *L, lcall *C, ltopo *T, lsbuf *b, const lopts *o,
                              int status) {
  if (status == ASTAR_FOUND) {
    push_theta_path(L, C, T, b, o, o->q.goal);
    return 1;
  }
  if (o->partial && astar_theta_best(b->th) >= 0) {
    push_theta_path(L, C, T, b, o, astar_theta_best(b->th));
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "partial");
    lua_pushstring(L, astar_status_name(status));
    lua_setfield(L, -2, "reason");
    return 1;
  }
  lua_pushnil(L);
  lua_pushstring(L, astar_status_name(status));
  lua_createtable(L, 0, 4);
  push_theta_stats(L, b->th, o);
  return 3;
}

/* Begins the any-angle search of o on T in b; raises on a core error. */
static void theta_begin(lua_State *L, lcall *C, ltopo *T, lsbuf *b, lopts *o) {
  astar_theta *th = theta_of(L, C, b);
  int rc = astar_theta_begin(th, T->grid, &o->q);
  if (rc != ASTAR_OK) theta_error(L, T, th, rc);
}

/* Runs at most n expansions (0: to the end); the status, or raises. */
static int theta_step(lua_State *L, ltopo *T, lsbuf *b, uint64_t n) {
  int rc = astar_theta_step(b->th, n);
  if (rc < 0) theta_error(L, T, b->th, rc);
  return rc;
}

/* find_path with any_angle = true: the whole search, then the outcome. */
static int theta_find_path(lua_State *L, lcall *C, ltopo *T, lsbuf *b, lopts *o) {
  int rc;
  theta_begin(L, C, T, b, o);
  rc = theta_step(L, T, b, 0);
  return push_theta_outcome(L, C, T, b, o, rc);
}

/* ------------------------------------------------------------------------ */
/* grid:smooth                                                                */
/* ------------------------------------------------------------------------ */

/* Pushes "cell (x, y), which is blocked" (or "which the forbid field
** forbids", "whose tag "lava" the costs forbid") for a fault of
** astar_grid_step_fault that blames `cell`. */
static const char *cell_phrase(lua_State *L, ltopo *T, int fault, int32_t cell) {
  int32_t w = astar_grid_width(T->grid), x = cell % w, y = cell / w, tag = 0;
  const char *why = "which is blocked";
  if (fault == ASTAR_STEP_FORBIDDEN) why = "which the forbid field forbids";
  if (fault == ASTAR_STEP_TAG) {
    astar_grid_tag(T->grid, x, y, &tag);
    push_tag_name(L, 1, tag);
    why = lua_pushfstring(L, "whose tag %s the costs forbid", describe(L, -1));
  }
  return lua_pushfstring(L, "cell (%d, %d), %s", (int)(x + 1), (int)(y + 1), why);
}

/* Pushes why the query's unit may not stand at (or enter) cell `at`: the
** cell_phrase of the cell to blame, for a sized unit of its block ("cell
** (1, 1), where the unit (size 2) covers cell (2, 2), which is blocked"). */
static const char *stand_phrase(lua_State *L, ltopo *T, const lopts *o, int fault, int32_t at,
                                int32_t cell) {
  int32_t w = astar_grid_width(T->grid);
  if (o->q.size <= 1) return cell_phrase(L, T, fault, cell);
  if (cell < 0)
    return lua_pushfstring(L, "cell (%d, %d), where the unit (size %d) leaves the grid",
                           (int)(at % w + 1), (int)(at / w + 1), (int)o->q.size);
  return lua_pushfstring(L, "cell (%d, %d), where the unit (size %d) covers %s",
                         (int)(at % w + 1), (int)(at / w + 1), (int)o->q.size,
                         cell_phrase(L, T, fault, cell));
}

/* Raises for entry i (0-based) of path.nodes, cell c, which the search
** under o could not have reached from the entry before it (prev; -1 for the
** first): fault and cell from astar_grid_step_fault.  Stack: the message
** pieces are pushed, then raised. */
static int step_error(lua_State *L, ltopo *T, const lopts *o, int32_t i, int32_t prev,
                      int32_t c, int fault, int32_t cell) {
  int32_t w = astar_grid_width(T->grid), x = c % w + 1, y = c / w + 1;
  int diag = astar_grid_diagonal(T->grid);
  const char *msg;
  if (fault < 0) /* the ids were checked: not expected */
    return raise_error(L, "%s: %s", fname_of(L), astar_status_name(fault));
  switch (fault) {
    case ASTAR_STEP_SAME:
      msg = lua_pushfstring(L, "path.nodes[%d] (cell (%d, %d)) repeats the cell before it",
                            (int)i + 1, (int)x, (int)y);
      break;
    case ASTAR_STEP_FAR:
      msg = lua_pushfstring(L, "path.nodes[%d] (cell (%d, %d)) is not a neighbour of the cell "
                               "before it",
                            (int)i + 1, (int)x, (int)y);
      break;
    case ASTAR_STEP_DIAGONAL:
      msg = lua_pushfstring(L, "path.nodes[%d] (cell (%d, %d)) is a diagonal step from the "
                               "cell before it (diagonal = \"never\" allows none)",
                            (int)i + 1, (int)x, (int)y);
      break;
    case ASTAR_STEP_CORNER: {
      /* name the side positions that are closed: one or both */
      int32_t side[2], bad[2], k, m = 0;
      const char *past[2];
      side[0] = (prev / w) * w + c % w; /* (tx, fy) */
      side[1] = (c / w) * w + prev % w; /* (fx, ty) */
      for (k = 0; k < 2; k++) {
        int f = astar_grid_step_fault(T->grid, &o->q, -1, side[k], &bad[k]);
        if (f != ASTAR_STEP_OK) past[m++] = stand_phrase(L, T, o, f, side[k], bad[k]);
      }
      if (m == 2) past[0] = lua_pushfstring(L, "%s, and %s", past[0], past[1]);
      msg = lua_pushfstring(L, "path.nodes[%d] (cell (%d, %d)) is a diagonal step from the "
                               "cell before it past %s (diagonal = \"%s\" needs %s)",
                            (int)i + 1, (int)x, (int)y, m > 0 ? past[0] : "?",
                            diagonal_names[diag],
                            diag == ASTAR_DIAG_ONE_OBSTACLE ? "a side cell open"
                                                            : "both side cells open");
      break;
    }
    default: /* where it stands or enters */
      msg = lua_pushfstring(L, "path.nodes[%d] is %s", (int)i + 1,
                            stand_phrase(L, T, o, fault, c, cell));
  }
  return arg_error(L, 2, msg);
}

/*
** grid:smooth(path [, opts]) -> points: smooths a path of this grid (a
** table whose nodes are cell ids, as find_path returns) under the cost
** options opts (the options the path was searched with; its search-only
** options are accepted and ignored), and stores the points in path.points
** too.  The path is an ordinary table: every entry is checked -- cells of
** this grid, each step one the search under opts could take (the unit
** stands on the first cell; then neighbours, none repeated, the cell
** entered open, not forbidden by the forbid field or a tag factor, a
** diagonal step as the grid's rule allows it, with forbidden side cells as
** closed as blocked ones).  A path of another grid fails here.
*/
static int l_grid_smooth(lua_State *L) {
  /* stack: 1 grid, 2 path, 3 options, 4 search state, then the slots */
  lcall *C = call_frame(L);
  ltopo *T = hold_self(L, C, 1);
  int32_t w = astar_grid_width(T->grid), h = astar_grid_height(T->grid), i, n;
  size_t len;
  lsearch *S;
  lopts o;
  if (!lua_istable(L, 2)) type_error(L, 2, "table (a path)");
  lua_settop(L, 3);
  S = acquire_search(L, C, 1);
  parse_options(L, C, T, 1, 3, &S->b, &o, 0, 0, FOR_PATH);
  if (o.any_angle) arg_error(L, 3, "option \"any_angle\" does not apply to smooth");
  lua_getfield(L, 2, "nodes");
  if (!lua_istable(L, -1))
    arg_error(L, 2, lua_pushfstring(L, "path.nodes must be a list of cell ids, got %s", describe(L, -1)));
  len = compat_rawlen(L, -1);
  if (len < 1 || len > (size_t)w * (size_t)h * 8)
    arg_error(L, 2, lua_pushfstring(L, "path.nodes must hold 1..%d cells, got %d", (int)(w * h > INT32_MAX / 8 ? INT32_MAX : w * h * 8), (int)(len > INT32_MAX ? INT32_MAX : len)));
  n = (int32_t)len;
  S->b.nodes = (int32_t *)sbuf_grow(L, C->M, S->b.nodes, &S->b.nodes_cap, len, sizeof(int32_t));
  for (i = 0; i < n; i++) {
    double v;
    int32_t c, prev = i > 0 ? S->b.nodes[i - 1] : -1, cell;
    int fault;
    lua_rawgeti(L, -1, i + 1);
    v = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER || v != floor(v) || v < 1 || v > (double)w * h)
      arg_error(L, 2, lua_pushfstring(L, "path.nodes[%d] must be a cell id of the %dx%d grid, "
                                         "got %s",
                                      (int)i + 1, (int)w, (int)h, describe(L, -1)));
    c = (int32_t)v - 1;
    fault = astar_grid_step_fault(T->grid, &o.q, prev, c, &cell);
    if (fault != ASTAR_STEP_OK) step_error(L, T, &o, i, prev, c, fault, cell);
    S->b.nodes[i] = c;
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  smooth_cells(L, C, T, &S->b, &o.q, n);
  lua_pushvalue(L, -1);
  lua_setfield(L, 2, "points");
  return 1;
}

/* ------------------------------------------------------------------------ */
/* world coordinates                                                          */
/* ------------------------------------------------------------------------ */

/*
** A grid's world frame: cell (x, y) is the square of side cell_size whose
** top-left corner is origin + ((x - 1) * s, (y - 1) * s).  Kept in the
** grid's user value (cell_size, ox, oy) when set; the default frame is
** cell_size 1, origin (0, 0).
*/

/* Reads the origin option on top of the stack (not nil) into ox, oy: a
** table holding exactly the keys 1 and 2 (read raw), each a finite number.
** The message names what is wrong: the value, a stray key, or the
** coordinate and its value. */
static void world_origin(lua_State *L, int arg, double *ox, double *oy) {
  int t = lua_gettop(L), i;
  if (!lua_istable(L, t))
    arg_error(L, arg, lua_pushfstring(L, "origin must be a table {x, y} of two finite numbers, "
                                         "got %s",
                                      describe(L, t)));
  lua_pushnil(L);
  while (lua_next(L, t)) { /* stack: origin, key, value */
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TNUMBER || (lua_tonumber(L, -1) != 1 && lua_tonumber(L, -1) != 2))
      arg_error(L, arg, lua_pushfstring(L, "origin must be a table {x, y} of two finite "
                                           "numbers, got a table with key %s",
                                        describe(L, -1)));
  }
  for (i = 1; i <= 2; i++) {
    double v;
    lua_rawgeti(L, t, i);
    v = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER || !isfinite(v))
      arg_error(L, arg, lua_pushfstring(L, "origin[%d] must be a finite number, got %s", i, describe(L, -1)));
    *(i == 1 ? ox : oy) = v;
    lua_pop(L, 1);
  }
}

/* Reads cell_size and origin from the grid options table at arg (already
** checked for unknown keys by the caller) into s, ox, oy. */
static void world_options(lua_State *L, int arg, double *s, double *ox, double *oy) {
  *s = 1;
  *ox = *oy = 0;
  if (!lua_istable(L, arg)) return;
  lua_getfield(L, arg, "cell_size");
  if (!lua_isnil(L, -1)) {
    double v = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : -1;
    if (lua_type(L, -1) != LUA_TNUMBER || !(v > 0) || !isfinite(v))
      arg_error(L, arg, lua_pushfstring(L, "cell_size must be a finite number > 0, got %s", describe(L, -1)));
    *s = v;
  }
  lua_pop(L, 1);
  lua_getfield(L, arg, "origin");
  if (!lua_isnil(L, -1)) world_origin(L, arg, ox, oy);
  lua_pop(L, 1);
}

/* Stores the frame in the user value of the grid at gidx (only when it is
** not the default, so plain grids pay nothing). */
static void world_store(lua_State *L, int gidx, double s, double ox, double oy) {
  if (s == 1 && ox == 0 && oy == 0) return;
  compat_getuv(L, gidx);
  lua_pushnumber(L, s);
  lua_setfield(L, -2, "cell_size");
  lua_pushnumber(L, ox);
  lua_setfield(L, -2, "ox");
  lua_pushnumber(L, oy);
  lua_setfield(L, -2, "oy");
  lua_pop(L, 1);
}

static void world_frame(lua_State *L, double *s, double *ox, double *oy) {
  compat_getuv(L, 1);
  lua_getfield(L, -1, "cell_size");
  lua_getfield(L, -2, "ox");
  lua_getfield(L, -3, "oy");
  *s = lua_isnil(L, -3) ? 1 : lua_tonumber(L, -3);
  *ox = lua_tonumber(L, -2);
  *oy = lua_tonumber(L, -1);
  lua_pop(L, 4);
}
