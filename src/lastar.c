/*
** lastar.c -- the Lua binding of the astar core: the C module "astar.core".
**
** This file is only the entry point.  The binding is split by concern and
** compiled as one unit (as luv does), so its helpers stay static and the
** build lists one source; each file is included in dependency order:
**
**   compat.h    the Lua 5.1 - 5.5 / LuaJIT differences, behind one name each
**   lobject.c   the module state, accounted memory, object lifetimes (holds,
**               locks, deferred close) and protected calls
**   largs.c     argument checks and error messages
**   ltopo.c     topologies as Lua objects: the class interface, tags, the
**               cached search state
**   lfield.c    fields (per-cell numbers: penalties, visibility, distances)
**   lheur.c     heuristic names, heuristic objects, the named registry
**   lopts.c     search options: the option table and its parsers
**   lresult.c   paths, statistics, outcomes, core error messages
**   lsearch.c   callbacks, find_path, distances, audit_heuristic
**   lquery.c    time-sliced queries
**   lbatch.c    astar.batch: many requests on OS threads
**   lgraph.c    astar.Graph: its class and methods
**   lcells.c    what every grid of cells shares: its class functions and the
**               cell methods, registered into each class of grids
**   lgrid.c     astar.Grid: the square shape's own (rule, picture, metric)
**   lhex.c      astar.Hex: the hex shape's own (layout, picture, metric)
**   ltext.c     grids from text
**   lsmooth.c   smoothing, any-angle paths, the world frame's options
**   lgoals.c    where units go: nearest open cells and nodes, spread, the
**               nearest of several goals, flight, the way out of a wall
**   lstale.c    versions, the change log, whether a path still holds
**
** A new topology is a core file (src/<kind>.c) and a class file like
** lgraph.c, registered below; a new grid shape is a core shape file
** (src/<shape>.c) and a file like lhex.c (its lcells_ops and class); a new
** option is a row in lopts.c.
*/
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "astar.h"
#include "compat.h"

#include "lobject.c"
#include "largs.c"
#include "ltopo.c"
#include "lfield.c"
#include "lheur.c"
#include "lopts.c"
#include "lresult.c"
#include "lsearch.c"
#include "lquery.c"
#include "lbatch.c"
#include "lgraph.c"
#include "lcells.c"
#include "lgrid.c"
#include "lhex.c"
#include "ltext.c"
#include "lsmooth.c"
#include "lgoals.c"
#include "lstale.c"

/* ------------------------------------------------------------------------ */
/* registration                                                               */
/* ------------------------------------------------------------------------ */

/* What every topology has, written once (lsearch.c, lquery.c, ltopo.c). */
static const lfunc topo_methods[] = {
    {"find_path", l_find_path, 1, NULL},
    {"query", l_query, 1, NULL},
    {"distances", l_distances, 1, NULL},
    {"connected", l_topo_connected, 1, NULL},
    {"would_disconnect", l_topo_would_disconnect, 1, NULL},
    {"distances_query", l_distances_query, 1, NULL},
    {"version", l_topo_version, 0, NULL},
    {"find_nearest", l_find_nearest, 1, NULL},
    {"close", l_topo_close, 0, NULL},
    {NULL, NULL, 0, NULL}};

/* What every grid of cells has, written once (lcells.c). */
static const lfunc cell_methods[] = {
    {"set_blocked", l_cells_set_blocked, 0, NULL},
    {"set_blocked_rect", l_cells_set_blocked_rect, 0, NULL},
    {"set_blocked_cells", l_cells_set_blocked_cells, 0, NULL},
    {"set_cost_rect", l_cells_set_cost_rect, 0, NULL},
    {"set_cost_cells", l_cells_set_cost_cells, 0, NULL},
    {"set_tag_rect", l_cells_set_tag_rect, 0, cells_set_tag_rect_named},
    {"set_tag_cells", l_cells_set_tag_cells, 0, cells_set_tag_cells_named},
    {"is_blocked", l_cells_is_blocked, 0, NULL},
    {"to_table", l_cells_to_table, 1, NULL},
    {"set_cost", l_cells_set_cost, 0, NULL},
    {"get_cost", l_cells_get_cost, 0, NULL},
    {"set_tag", l_cells_set_tag, 0, cells_set_tag_named},
    {"get_tag", l_cells_get_tag, 0, NULL},
    {"id", l_cells_id, 0, NULL},
    {"xy", l_cells_xy, 0, NULL},
    {"size", l_cells_size, 0, NULL},
    {"neighbours", l_cells_neighbours, 0, NULL},
    {"line_of_sight", l_cells_line_of_sight, 0, NULL},
    {"clearance", l_cells_clearance, 0, NULL},
    {"visible_from", l_cells_visible_from, 1, NULL},
    {"to_string", l_cells_to_string, 1, NULL},
    {"memory", l_cells_memory, 0, NULL},
    {"to_world", l_cells_to_world, 0, NULL},
    {"to_cell", l_cells_to_cell, 0, NULL},
    {"world", l_cells_world, 0, NULL},
    {"nearest_open", l_cells_nearest_open, 0, NULL},
    {"spread", l_cells_spread, 1, NULL},
    {"changes", l_cells_changes, 0, NULL},
    {"path_valid", l_cells_path_valid, 1, NULL},
    {"flee", l_cells_flee, 1, NULL},
    {NULL, NULL, 0, NULL}};

static const lfunc cell_metamethods[] = {
    {"__gc", l_topo_gc, 0, NULL},
    {"__close", l_topo_close, 0, NULL},
    {"__tostring", l_cells_tostring, 0, NULL},
    {NULL, NULL, 0, NULL}};

/* Each shape's own: square grids have a diagonal rule and segments
** (smoothing); hex grids a layout and a distance of their own. */
static const lfunc grid_methods[] = {
    {"diagonal", l_grid_diagonal, 0, NULL},
    {"smooth", l_grid_smooth, 1, NULL},
    {"precompute_jumps", l_grid_precompute_jumps, 0, NULL},
    {"has_jumps", l_grid_has_jumps, 0, NULL},
    {NULL, NULL, 0, NULL}};

static const lfunc hex_methods[] = {
    {"layout", l_hex_layout, 0, NULL},
    {"distance", l_hex_distance, 0, NULL},
    {NULL, NULL, 0, NULL}};

static const lfunc field_methods[] = {
    {"get", l_field_get, 0, NULL},
    {"set", l_field_set, 0, NULL},
    {"fill", l_field_fill, 0, NULL},
    {"add_disc", l_field_add_disc, 0, NULL},
    {"size", l_field_size, 0, NULL},
    {"next_step", l_field_next_step, 0, NULL},
    {"stale", l_field_stale, 0, NULL},
    {"version", l_field_version, 0, NULL},
    {"update", l_field_update, 1, NULL},
    {"close", l_field_close, 0, NULL},
    {NULL, NULL, 0, NULL}};

static const lfunc field_metamethods[] = {{"__tostring", l_field_tostring, 0, NULL},
                                          {"__close", l_field_close, 0, NULL},
                                          {NULL, NULL, 0, NULL}};

static const lfunc query_methods[] = {
    {"step", l_query_step, 1, NULL},
    {"result", l_query_result, 1, NULL},
    {"cancel", l_query_cancel, 0, NULL},
    {"status", l_query_status, 0, NULL},
    {NULL, NULL, 0, NULL}};

static const lfunc query_metamethods[] = {
    {"__gc", l_query_gc, 0, NULL},
    {"__close", l_query_cancel, 0, NULL},
    {"__tostring", l_query_tostring, 0, NULL},
    {NULL, NULL, 0, NULL}};

static const lfunc heur_methods[] = {
    {"value", l_heur_value, 0, NULL}, {"stale", l_heur_stale, 0, NULL}, {"close", l_heur_close, 0, NULL}, {NULL, NULL, 0, NULL}};

static const lfunc heur_metamethods[] = {
    {"__gc", l_heur_gc, 0, NULL},
    {"__close", l_heur_close, 0, NULL},
    {"__tostring", l_heur_tostring, 0, NULL},
    {NULL, NULL, 0, NULL}};

static const lfunc search_metamethods[] = {{"__gc", l_search_gc, 0, NULL}, {NULL, NULL, 0, NULL}};

static const lfunc batch_metamethods[] = {{"__gc", l_batch_gc, 0, NULL}, {NULL, NULL, 0, NULL}};

static const lfunc funcs[] = {
    {"graph", l_graph_new, 0, NULL},
    {"grid", l_grid_new, 0, NULL},
    {"grid_from_string", l_grid_from_string, 0, NULL},
    {"hex", l_hex_new, 0, NULL},
    {"field", l_field_new, 0, NULL},
    {"cluster_heuristic", l_cluster_heuristic, 1, NULL},
    {"landmarks", l_landmarks, 1, NULL},
    {"register_heuristic", l_register_heuristic, 0, NULL},
    {"audit_heuristic", l_audit_heuristic, 1, NULL},
    {"batch", l_batch, 1, NULL},
    {"_batch_info", l_batch_info, 0, NULL},
    {"heuristics", l_heuristics, 0, NULL},
    {"_options", l_options, 0, NULL},
    {"_methods", l_methods, 0, NULL},
    {"_jump_table", l_jump_table, 0, NULL},
    {"_set_blocked_all", l_set_blocked_all, 0, NULL},
    {"_components_current", l_components_current, 0, NULL},
    {NULL, NULL, 0, NULL}};

/* A topology class (number i of TOPO_CLASSES): its metatable, methods (its
** own and the shared ones: every topology's, and every grid's for classes
** of cells), and the class pointer the generic code finds it by (the
** metatable's CLASS_FIELD, and lstate's class_mt[i] with the metatable
** anchored in the keys). */
static void new_topology_class(lua_State *L, lstate *M, int i, const ltopo_class *cls,
                               const lfunc *meta, const lfunc *methods) {
  const lfunc *lists[4];
  lists[0] = methods;
  lists[1] = topo_methods;
  lists[2] = cls->cells ? cell_methods : NULL;
  lists[3] = NULL;
  new_class(L, M, cls->mt, meta, lists, cls);
  luaL_getmetatable(L, cls->mt);
  lua_pushlightuserdata(L, (void *)cls);
  lua_setfield(L, -2, CLASS_FIELD);
  push_keys(L);
  lua_pushvalue(L, -2);
  lua_rawseti(L, -2, K_CLASS_MTS + i);
  lua_pop(L, 1);
  M->class_mt[i] = lua_topointer(L, -1);
  M->class_of[i] = cls;
  lua_pop(L, 1);
}

/* A class with one list of methods (or none). */
static void new_plain_class(lua_State *L, lstate *M, const char *name, const lfunc *meta,
                            const lfunc *methods) {
  const lfunc *lists[2];
  lists[0] = methods;
  lists[1] = NULL;
  new_class(L, M, name, meta, methods ? lists : NULL, NULL);
}

/* The module's one exported symbol.  A Windows DLL exports only what is
** marked (MSVC; MinGW exports everything when nothing is); elsewhere the
** core's functions are hidden (astar.h, "Symbols") and this one is marked
** visible, so that it stays exported under -fvisibility=hidden too. */
#if defined(_WIN32) || defined(__CYGWIN__)
#define ASTAR_LUAOPEN __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define ASTAR_LUAOPEN __attribute__((visibility("default")))
#else
#define ASTAR_LUAOPEN
#endif
ASTAR_LUAOPEN int luaopen_astar_core(lua_State *L);

ASTAR_LUAOPEN int luaopen_astar_core(lua_State *L) {
  lstate *M;
  int i;
#if LUA_VERSION_NUM >= 502
  /* a module built for another Lua (5.4's loaded by 5.5) raises "version
  ** mismatch" here, as luaL_newlib would, before its first call into the
  ** host can crash */
  luaL_checkversion(L);
#endif
  M = state_open(L);
  new_topology_class(L, M, 0, &graph_class, graph_metamethods, graph_methods);
  new_topology_class(L, M, 1, &grid_class, cell_metamethods, grid_methods);
  new_topology_class(L, M, 2, &hex_class, cell_metamethods, hex_methods);
  new_plain_class(L, M, SEARCH_MT, search_metamethods, NULL);
  new_plain_class(L, M, BATCH_MT, batch_metamethods, NULL);
  new_plain_class(L, M, FIELD_MT, field_metamethods, field_methods);
  new_plain_class(L, M, QUERY_MT, query_metamethods, query_methods);
  new_plain_class(L, M, HEUR_MT, heur_metamethods, heur_methods);
  luaL_newmetatable(L, GRID_PATH_MT);
  lua_pushstring(L, GRID_PATH_MT); /* as new_class does: 5.1 and 5.2 set no __name */
  lua_setfield(L, -2, "__name");
  lua_newtable(L); /* the path methods (l_methods) */
  lua_pushcclosure(L, grid_path_index, 1);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  lua_newtable(L); /* grids' path metatables by grid (see push_path_mt) */
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "v");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  push_keys(L); /* the result builders read it there (KEY) */
  lua_pushvalue(L, -2);
  lua_rawseti(L, -2, K_PATH_MTS);
  lua_pop(L, 1);
  lua_setfield(L, LUA_REGISTRYINDEX, PATH_MTS);
  lua_getfield(L, LUA_REGISTRYINDEX, REGISTRY_KEY); /* shared by every require */
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, REGISTRY_KEY);
  }
  push_keys(L); /* the calls read it there (KEY), and the built-in names */
  lua_insert(L, -2);
  lua_rawseti(L, -2, K_HEURISTICS);
  if (luaL_loadbuffer(L, LIST_CHUNK, sizeof LIST_CHUNK - 1, "=(astar list)") != LUA_OK)
    return lua_error(L); /* out of memory */
  lua_rawseti(L, -2, K_LIST);
  push_option_names(L);
  lua_rawseti(L, -2, K_OPTIONS);
  for (i = 0; i < HEURISTIC_COUNT; i++) {
    lua_pushstring(L, heuristic_names[i]);
    lua_rawseti(L, -2, K_HNAMES + i);
  }
  lua_pop(L, 1);
  lua_newtable(L);
  register_funcs(L, M, funcs, 0, NULL);
  lua_pushstring(L, astar_version()); /* the compiled core's, not the header's */
  lua_setfield(L, -2, "version");
  lua_pushfstring(L, "astar %s", astar_version());
  lua_setfield(L, -2, "_VERSION");
  lua_pushnumber(L, ASTAR_GRID_DIAG);
  lua_setfield(L, -2, "DIAGONAL");
  return 1;
}
