/*
** fuzz_parse.c -- libFuzzer harness for the text parsers: the C
** grid_from_string (with and without a legend) and the Lua Moving AI parsers
** (astar.maps.parse, astar.maps.parse_scenarios), through a real Lua state
** with the module loaded.  Whatever grid comes out is then drawn, searched,
** and looked through (to_string, find_path, line_of_sight, visible_from).
**
** A clean Lua error is an acceptable answer to bad text; a crash, a
** sanitizer report, or an internal Lua error (a runtime error such as
** "attempt to index a nil value", or any error positioned inside lua/astar/)
** aborts with the input.
**
** make build/fuzz/fuzz_parse builds it with the module's sources (CORE_SRC
** and BINDING of src/sources.mk):
**   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc -I/usr/include/lua5.4 \
**         fuzz/fuzz_parse.c <CORE_SRC> <BINDING> -llua5.4 <LIBS> -o build/fuzz/fuzz_parse
** Run from the repository root (it loads lua/astar/maps.lua).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

int luaopen_astar_core(lua_State *L);

static const char *driver =
    "local core = require('astar.core')\n"
    "local maps = require('astar.maps')\n"
    "local function clean(ok, err)\n"
    "  if ok then return end\n"
    "  if type(err) ~= 'string' or err:find('attempt to', 1, true)\n"
    "     or err:find('lua/astar/', 1, true) then\n"
    "    error('INTERNAL: ' .. tostring(err), 0)\n"
    "  end\n"
    "end\n"
    "local function exercise(g)\n"
    "  local w, h = g:size()\n"
    "  clean(pcall(g.to_string, g))\n"
    "  local ok, p = pcall(g.find_path, g, 1, 1, w, h)\n"
    "  clean(ok, p)\n"
    "  if ok and p then clean(pcall(g.to_string, g, p)) end\n"
    "  clean(pcall(g.line_of_sight, g, 1, 1, w, h))\n"
    "  clean(pcall(g.visible_from, g, 1, 1, 6))\n"
    "  clean(pcall(g.find_path, g, w, h, 1, 1, { heuristic = 'euclidean', stop = 'optimal' }))\n"
    "end\n"
    "return function(data)\n"
    "  local mode, text = data:byte(1) or 0, data:sub(2)\n"
    "  mode = mode % 4\n"
    "  if mode == 0 then\n"
    "    local ok, g = pcall(core.grid_from_string, text)\n"
    "    clean(ok, g)\n"
    "    if ok then exercise(g) end\n"
    "  elseif mode == 1 then\n"
    "    -- a legend from the first bytes: char -> kind\n"
    "    local legend, n = {}, (text:byte(1) or 0) % 6\n"
    "    for i = 1, n do\n"
    "      local c, k = text:sub(2 * i, 2 * i), text:byte(2 * i + 1) or 0\n"
    "      if c ~= '' then\n"
    "        local kinds = { true, false, k / 7, 'tag' .. k % 3, { cost = k % 5, tag = 'x' },\n"
    "                        { blocked = k % 2 == 0 } }\n"
    "        legend[k % 9 == 0 and 'default' or c] = kinds[k % 6 + 1]\n"
    "      end\n"
    "    end\n"
    "    local ok, g = pcall(core.grid_from_string, text:sub(2 * n + 2), legend)\n"
    "    clean(ok, g)\n"
    "    if ok then exercise(g) end\n"
    "  elseif mode == 2 then\n"
    "    local ok, g = pcall(maps.parse, text)\n"
    "    clean(ok, g)\n"
    "    if ok then exercise(g) end\n"
    "  else\n"
    "    local ok, list = pcall(maps.parse_scenarios, text)\n"
    "    clean(ok, list)\n"
    "    if ok then for _, s in ipairs(list) do assert(s.tolerance >= 0) end end\n"
    "  end\n"
    "end\n";

static lua_State *L;
static int driver_ref;

static void init(void) {
  L = luaL_newstate();
  luaL_openlibs(L);
  luaL_requiref(L, "astar.core", luaopen_astar_core, 0);
  lua_pop(L, 1);
  if (luaL_dostring(L, "package.path = 'lua/?.lua;lua/?/init.lua;' .. package.path") ||
      luaL_loadstring(L, driver) || lua_pcall(L, 0, 1, 0)) {
    fprintf(stderr, "fuzz_parse: setup failed: %s\n", lua_tostring(L, -1));
    abort();
  }
  driver_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int runs = 0;
  if (L == NULL) init();
  lua_rawgeti(L, LUA_REGISTRYINDEX, driver_ref);
  lua_pushlstring(L, (const char *)data, size);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
    fprintf(stderr, "fuzz_parse: %s\n", lua_tostring(L, -1));
    abort();
  }
  lua_settop(L, 0);
  if (++runs % 256 == 0) lua_gc(L, LUA_GCCOLLECT, 0);
  return 0;
}
