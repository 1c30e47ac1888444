/*
** lheur.c -- heuristics as Lua sees them: the built-in names, heuristic
** objects (precomputed landmark and cluster tables, built and evaluated by
** the core: heuristics.c), and the registry of named heuristics a game's
** scripts share.  Included by lastar.c.
**
** A heuristic object serves one topology as it was when built: a changed
** topology could make a table overestimate, so using it then is refused
** (check_heur_for) rather than trusted.  Building reads the topology only
** (no callback runs), holding and locking it for the whole call.  The
** registry lives in the Lua registry, so every require of the module in a
** state shares it, and names resolve when a query is made: a query keeps
** what its name meant then.
*/

#define HEUR_MT "astar.Heuristic"
#define REGISTRY_KEY "astar.heuristics"

/* The built-in names, keyed by the core's enum: they cannot drift. */
static const char *const heuristic_names[] = {
    [ASTAR_H_ZERO] = "zero",
    [ASTAR_H_EUCLIDEAN] = "euclidean",
    [ASTAR_H_MANHATTAN] = "manhattan",
    [ASTAR_H_OCTILE] = "octile",
    [ASTAR_H_CHEBYSHEV] = "chebyshev",
    [ASTAR_H_BISECTOR] = "bisector",
    [ASTAR_H_FULL_BISECTOR] = "full_bisector",
    [ASTAR_H_HEX] = "hex",
};
#define HEURISTIC_COUNT ((int)(sizeof heuristic_names / sizeof *heuristic_names))

/* A heuristic object: a core table and the topology userdata it serves
** (also in its user value, which keeps the topology alive). */
typedef struct lheur {
  lobj o;
  astar_table *tab;
  ltopo *T;
} lheur;

static void heur_release(lobj *o) {
  lheur *H = (lheur *)o;
  astar_table_free(H->tab);
  H->tab = NULL;
}

static int l_heur_gc(lua_State *L) {
  obj_gc(&((lheur *)check_ud(L, 1, HEUR_MT))->o);
  return 0;
}

/* heuristic:close() and __close: frees the table now (a search using it
** finishes first); later use raises "attempt to use a closed heuristic".
** Idempotent. */
static int l_heur_close(lua_State *L) {
  obj_close(&((lheur *)check_ud(L, 1, HEUR_MT))->o);
  return 0;
}

/* Pushes an empty heuristic object for the topology at tidx. */
static lheur *heur_new(lua_State *L, ltopo *T, int tidx) {
  lheur *H = (lheur *)compat_newud(L, sizeof(lheur));
  obj_init(&H->o, get_state(L), heur_release);
  H->tab = NULL;
  H->T = T;
  luaL_getmetatable(L, HEUR_MT);
  lua_setmetatable(L, -2);
  set_owner(L, tidx, "topo");
  return H;
}

/* Raises the error of a failed table build (fname: "landmarks", ...). */
static int build_error(lua_State *L, int rc, const char *fname, const char *what) {
  if (rc == ASTAR_EINVAL) return raise_error(L, "%s: the %s has no open node", fname, what);
  if (rc == ASTAR_EOVERFLOW)
    return raise_error(L, "%s: the cost of a path in the %s overflows (costs too large)", fname,
                       what);
  return status_error(L, rc);
}

/* astar.landmarks(topology, k) -> heuristic (ALT): k landmarks chosen by
** farthest-point sampling, with the costs from and to each of them. */
static int l_landmarks(lua_State *L) {
  lcall *C = call_frame(L);
  ltopo *T = check_topo(L, 1, NULL);
  int32_t k;
  lheur *H;
  int rc;
  hold(L, C, &T->o, 1);
  k = (int32_t)check_count(L, 2, 2, "k", ASTAR_MAX_LANDMARKS, "64");
  lua_settop(L, 2);
  H = heur_new(L, T, 1);
  rc = astar_landmarks_build(T->t, k, state_alloc, C->M, &H->tab);
  if (rc != ASTAR_OK) return build_error(L, rc, "landmarks", T->cls->what);
  return 1;
}

/* Hand-made cluster labels from the table or field at 2: distinct values
** become 0..k-1 in order of first use (field values <= 0: no cluster).
** Writes n labels; returns k.  The labels are table keys here, so nan,
** which no table can hold, is refused by name.  Stack: pushes the map of
** label values to indices while it works, pops it before returning. */
static int32_t read_labels(lua_State *L, ltopo *T, int32_t n, int32_t *labels) {
  lfield *F = (lfield *)compat_testudata(L, 2, FIELD_MT);
  int32_t v, k = 0, w, h;
  if (F != NULL && (!T->cls->shape(T, &w, &h) || F->w != w || F->h != h)) {
    if (!T->cls->shape(T, &w, &h)) arg_error(L, 2, "a field of labels needs a grid");
    arg_error(L, 2, lua_pushfstring(L, "clusters field is %dx%d but the grid is %dx%d", (int)F->w, (int)F->h, (int)w, (int)h));
  }
  lua_newtable(L); /* label value -> index */
  for (v = 0; v < n; v++) {
    labels[v] = -1;
    if (F != NULL) {
      if (!(F->v[v] > 0)) continue;
      lua_pushnumber(L, F->v[v]);
    } else {
      lua_rawgeti(L, 2, v + 1);
      if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        continue;
      }
      if (lua_type(L, -1) == LUA_TNUMBER && lua_tonumber(L, -1) != lua_tonumber(L, -1))
        arg_error(L, 2, lua_pushfstring(L, "clusters[%d] must be a label (any value but nan), "
                                           "got nan",
                                        (int)v + 1));
    }
    lua_pushvalue(L, -1);
    lua_rawget(L, -3); /* label, index? */
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      if (k == ASTAR_MAX_CLUSTERS) arg_error(L, 2, "at most 4096 distinct clusters");
      lua_pushinteger(L, k);
      lua_rawset(L, -3);
      labels[v] = k++;
    } else {
      labels[v] = (int32_t)lua_tonumber(L, -1);
      lua_pop(L, 2);
    }
  }
  lua_pop(L, 1);
  return k;
}

/* astar.cluster_heuristic(topology, clusters) -> heuristic.  clusters maps
** node (or cell) ids to cluster labels (any values; unlabelled nodes get
** only the geometric bound), or is a field of labels on grids, or
** { count = k } to cluster automatically. */
static int l_cluster_heuristic(lua_State *L) {
  lcall *C = call_frame(L);
  ltopo *T = check_topo(L, 1, NULL);
  int32_t n, k = 0, *labels = NULL;
  lheur *H;
  int rc;
  hold(L, C, &T->o, 1);
  n = astar_topology_node_count(T->t);
  lua_settop(L, 2);
  if (lua_istable(L, 2)) {
    lua_getfield(L, 2, "count"); /* 3 */
    if (!lua_isnil(L, 3))
      k = (int32_t)check_count(L, 2, 3, "clusters.count", ASTAR_MAX_CLUSTERS, "4096");
  } else if (!compat_testudata(L, 2, FIELD_MT)) {
    type_error(L, 2, "table (labels or { count = k }) or astar.Field");
  }
  if (k == 0) {
    labels = (int32_t *)compat_newud(L, (size_t)(n > 0 ? n : 1) * sizeof(int32_t));
    k = read_labels(L, T, n, labels);
    if (k == 0) arg_error(L, 2, "no node has a cluster");
  }
  H = heur_new(L, T, 1);
  rc = astar_clusters_build(T->t, labels, k, state_alloc, C->M, &H->tab);
  if (rc != ASTAR_OK) return build_error(L, rc, "cluster_heuristic", T->cls->what);
  return 1;
}

/* Checks that the heuristic object at hidx serves the topology T as it is
** now (a changed topology could make its tables overestimate). */
static lheur *check_heur_for(lua_State *L, int hidx, ltopo *T, int arg) {
  lheur *H = (lheur *)lua_touserdata(L, hidx);
  if (H->o.closed) closed_error(L, "heuristic");
  if (H->T != T) arg_error(L, arg, "heuristic was built for another graph or grid");
  if (H->tab == NULL || !astar_table_serves(H->tab, T->t))
    arg_error(L, arg, "heuristic was built before the last change to this graph or grid "
                      "(build it again)");
  return H;
}

/* h:value(node, goal) or h:value(x, y, gx, gy) -> the estimate. */
static int l_heur_value(lua_State *L) {
  lheur *H = (lheur *)check_ud(L, 1, HEUR_MT);
  ltopo *T = H->T;
  int32_t a, b;
  double h;
  if (H->o.closed) closed_error(L, "heuristic");
  if (T->o.closed) closed_error(L, T->cls->what);
  if (H->tab == NULL || !astar_table_serves(H->tab, T->t))
    return arg_error(L, 1, "heuristic was built before the last change to this graph or grid "
                           "(build it again)");
  a = T->cls->check_node(L, T, 2);
  b = T->cls->check_node(L, T, 2 + T->cls->node_args);
  astar_table_heuristic(H->tab, a, b, &h);
  lua_pushnumber(L, h);
  return 1;
}

static int l_heur_tostring(lua_State *L) {
  lheur *H = (lheur *)check_ud(L, 1, HEUR_MT);
  int landmarks = H->tab && astar_table_kind(H->tab) == ASTAR_TABLE_LANDMARKS;
  if (H->o.closed) {
    lua_pushliteral(L, "astar.Heuristic (closed)");
    return 1;
  }
  lua_pushfstring(L, "astar.Heuristic (%s, %d %s)", landmarks ? "landmarks" : "cluster table",
                  H->tab ? (int)astar_table_size(H->tab) : 0,
                  landmarks ? "landmarks" : "clusters");
  return 1;
}

/* ------------------------------------------------------------------------ */
/* the registry of named heuristics                                           */
/* ------------------------------------------------------------------------ */

static int builtin_heuristic(const char *name) {
  int i;
  for (i = 0; i < HEURISTIC_COUNT; i++)
    if (strcmp(name, heuristic_names[i]) == 0) return i;
  return -1;
}

/* astar.register_heuristic(name, h [, { override = true }]): h is a
** function, a callable, a heuristic object, or nil to unregister.  An
** override applies wherever its name does, a topology's default included. */
static int l_register_heuristic(lua_State *L) {
  static const char *const keys[] = {"override"};
  int override = 0;
  if (lua_type(L, 1) != LUA_TSTRING || compat_rawlen(L, 1) == 0)
    return arg_error(L, 1, lua_pushfstring(L, "name must be a non-empty string, got %s", describe(L, 1)));
  if (!lua_isnil(L, 2) && !is_callable(L, 2) && !compat_testudata(L, 2, HEUR_MT))
    return arg_error(L, 2, lua_pushfstring(L, "heuristic must be a function, a heuristic object or nil, got %s", describe(L, 2)));
  if (check_fields(L, 3, keys, 1)) {
    lua_getfield(L, 3, "override");
    if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TBOOLEAN)
      return arg_error(L, 3, lua_pushfstring(L, "override must be a boolean, got %s", describe(L, -1)));
    override = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  if (builtin_heuristic(lua_tostring(L, 1)) >= 0 && !override)
    return arg_error(L, 1, lua_pushfstring(L, "\"%s\" is a built-in heuristic (pass { override = true } to replace it)", lua_tostring(L, 1)));
  /* from now on, queries look up the name of their default heuristic
  ** (lopts.c's default_heuristic) */
  if (builtin_heuristic(lua_tostring(L, 1)) >= 0) get_state(L)->overridden = 1;
  KEY(L, K_HEURISTICS);
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  lua_rawset(L, -3);
  return 0;
}

/* astar.heuristics() -> the sorted names a query may ask for: the built-in
** ones and the registered ones. */
static int l_heuristics(lua_State *L) {
  int i, j, n = 0;
  lua_settop(L, 0); /* absolute indices below */
  lua_newtable(L);  /* 1: result */
  lua_newtable(L);  /* 2: set of names */
  for (i = 0; i < HEURISTIC_COUNT; i++) {
    lua_pushboolean(L, 1);
    lua_setfield(L, 2, heuristic_names[i]);
  }
  KEY(L, K_HEURISTICS);
  lua_pushnil(L);
  while (lua_next(L, -2)) { /* ..., reg, k, v */
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_pushboolean(L, 1);
    lua_rawset(L, 2);
  }
  lua_pop(L, 1);
  /* insertion sort into the result (a handful of names) */
  lua_pushnil(L);
  while (lua_next(L, 2)) {
    const char *name;
    lua_pop(L, 1);
    name = lua_tostring(L, -1);
    for (j = n; j > 0; j--) {
      int less;
      lua_rawgeti(L, 1, j);
      less = strcmp(name, lua_tostring(L, -1)) < 0;
      if (!less) {
        lua_pop(L, 1);
        break;
      }
      lua_rawseti(L, 1, j + 1);
    }
    lua_pushvalue(L, -1);
    lua_rawseti(L, 1, j + 1);
    n++;
  }
  lua_pop(L, 1);
  return 1;
}
