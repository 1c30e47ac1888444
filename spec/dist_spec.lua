-- The single-file build (make dist): dist/astar.c must compile alone, with
-- -std=c99 -pedantic -Werror, into a module that the interpreter running
-- this spec loads and that finds the same paths as the module in build/;
-- and with -DASTAR_NO_LUA into the C core alone, which a C program uses
-- through dist/astar.h.  Each run writes the amalgamation into a temporary
-- directory (make dist DIST_DIR=...), so the spec never touches dist/.
--
-- Pending (with the reason) when no C compiler or no headers for this Lua
-- are installed.  Portable: the suite also runs under Lua 5.1, 5.3, LuaJIT.
-- Heavy (compiles the amalgamation): tagged #system, run by make
-- test-system.

local helpers = require("helpers")
-- the files and the link flags (LIBS) of src/sources.mk
local sources = assert(dofile("tools/sources.lua").read())
local LIBS = table.concat(sources.libs, " ")

local quote, run = helpers.quote, helpers.run

local function have(tool) return (run("command -v " .. tool .. " >/dev/null")) end

-- The interpreter running this spec (busted --lua=...): arg[-1] when set.
local function lua_binary()
  local i, bin = -1, nil
  while arg and arg[i] do bin, i = arg[i], i - 1 end
  return bin or "lua5.4"
end

-- The Debian include directory of this interpreter's headers.
local function lua_include()
  if rawget(_G, "jit") then return "/usr/include/luajit-2.1" end
  return "/usr/include/lua" .. _VERSION:match("%d+%.%d+")
end

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

local slurp = helpers.slurp

-- The same searches run by both modules: a grid with a wall, a Lua
-- heuristic, a graph; one line of exact results.
local PROBE = [[
local astar = require("astar")
local g = astar.grid(24, 24)
for y = 2, 21 do g:set_blocked(12, y, true) end
g:set_cost(5, 5, 3.5)
local p = assert(g:find_path(2, 12, 22, 12))
local q = assert(g:find_path(2, 2, 22, 22, { heuristic = function(x, y, gx, gy)
  return math.max(math.abs(x - gx), math.abs(y - gy)) end }))
local gr = astar.graph()
for i = 1, 6 do gr:add_node(i, i % 2) end
for i = 1, 5 do gr:connect(i, i + 1, i) end
gr:add_edge(1, 6, 100)
local r = assert(gr:find_path(1, 6))
return ("grid %.17g %d %d | lua h %.17g %d | graph %.17g %d"):format(
  p.cost, #p.nodes, p.expanded, q.cost, #q.nodes, r.cost, #r.nodes)
]]

-- A C program on the core alone, through dist/astar.h.
local C_PROBE = [[
#include <stdio.h>
#include "astar.h"
int main(void) {
  astar_grid *g = astar_grid_new(16, 16, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_search *s = astar_search_new(NULL, NULL);
  astar_query q;
  int32_t y, len;
  if (!g || !s) return 1;
  for (y = 1; y < 15; y++) astar_grid_set_blocked(g, 8, y, 1);
  astar_query_init(&q, 7 * 16 + 1, 7 * 16 + 14);
  if (astar_search_begin(s, astar_grid_topology(g), &q) != ASTAR_OK) return 2;
  if (astar_search_step(s, 0) != ASTAR_FOUND) return 3;
  len = astar_search_path_length(s, q.goal);
  printf("core path of %d cells\n", (int)len);
  astar_search_free(s);
  astar_grid_free(g);
  return 0;
}
]]

describe("the single-file build (make dist) #system", function()
  local cc = os.getenv("CC") or "cc"
  if not (have(cc) and have("make")) then
    pending("skipped: needs a C compiler (" .. cc .. ") and make on PATH")
    return
  end
  local inc = lua_include()
  if not exists(inc .. "/lua.h") then
    pending("skipped: no Lua headers for " .. _VERSION .. " at " .. inc .. " (Debian: liblua5.x-dev, libluajit-5.1-dev)")
    return
  end

  local dir -- the temporary directory, made once
  local function dist()
    if not dir then
      dir = os.tmpname()
      os.remove(dir)
      local ok, out = run("mkdir -p " .. quote(dir .. "/astar") .. " && make -s dist DIST_DIR=" .. quote(dir))
      assert(ok, "make dist failed:\n" .. out)
    end
    return dir
  end

  it("writes dist/astar.c with every project header inlined, and dist/astar.h", function()
    local d = dist()
    local c = slurp(d .. "/astar.c")
    -- dist/astar.h: the licence (a comment), then src/astar.h unchanged
    local header, src = slurp(d .. "/astar.h"), slurp("src/astar.h")
    assert.are.equal(src, header:sub(-#src))
    local licence = "/*\n** MIT License\n"
    assert.are.equal(licence, header:sub(1, #licence))
    local quoted = {}
    for name in c:gmatch('\n%s*#%s*include%s+"([^"]+)"') do quoted[#quoted + 1] = name end
    table.sort(quoted)
    -- only the Lua headers stay included; every file src/sources.mk lists is inlined
    assert.are.same({ "lauxlib.h", "lua.h" }, quoted)
    for _, f in ipairs(sources.all) do
      assert.is_truthy(c:find('#line 1 "' .. f .. '"', 1, true), f .. " is not in the amalgamation")
    end
    assert.is_truthy(c:find("#ifndef ASTAR_NO_LUA", 1, true))
  end)

  it("builds the astar.core module alone (-std=c99 -pedantic -Werror), which finds the same paths", function()
    local d = dist()
    local so = d .. "/astar/core.so"
    local ok, out = run(("%s -std=c99 -pedantic -Werror -Wall -Wextra -O0 -fPIC -shared -I%s %s -o %s"):format(
      cc, quote(inc), quote(d .. "/astar.c"), quote(so)))
    assert(ok, "the amalgamation did not compile:\n" .. out)
    -- the child loads exactly that file (preload), not build/ through LUA_CPATH
    local script = d .. "/probe.lua"
    local f = assert(io.open(script, "wb"))
    f:write(("package.preload[\"astar.core\"] = assert(package.loadlib(%q, \"luaopen_astar_core\"))\n"):format(so),
      "package.path = \"lua/?.lua;lua/?/init.lua;\" .. package.path\n",
      "print(\"probe: \" .. (function()\n", PROBE, "\nend)())\n")
    f:close()
    local ran, child = run(lua_binary() .. " " .. quote(script))
    assert(ran, "the dist module failed:\n" .. child)
    local line = child:match("probe: ([^\n]*)")
    local load_string = loadstring or load -- 5.1 / LuaJIT: load takes a function
    local expected = assert(load_string(PROBE))()
    assert.are.equal(expected, line)
    os.remove(script)
  end)

  it("builds the C core alone with -DASTAR_NO_LUA, usable through dist/astar.h", function()
    local d = dist()
    local src, exe = d .. "/probe.c", d .. "/probe"
    local f = assert(io.open(src, "wb"))
    f:write(C_PROBE)
    f:close()
    local ok, out = run(("%s -std=c99 -pedantic -Werror -Wall -Wextra -O0 -DASTAR_NO_LUA -I%s -o %s %s %s %s && %s"):format(
      cc, quote(d), quote(exe), quote(src), quote(d .. "/astar.c"), LIBS, quote(exe)))
    assert(ok, "the core alone did not build or run:\n" .. out)
    local cells = tonumber(out:match("core path of (%d+) cells"))
    assert.is_true(cells ~= nil and cells >= 14, out)
    os.remove(src); os.remove(exe)
  end)

  -- doc/shipping.md's "engines that build their own Lua": its C block, linked
  -- with dist/astar.c and the Lua 5.4 library into a program that preloads
  -- the module and requires astar with no C searcher path at all.
  it("links into a C program that embeds Lua 5.4 and preloads the module (doc/shipping.md)", function()
    local inc54 = "/usr/include/lua5.4"
    if not exists(inc54 .. "/lua.h") then
      pending("skipped: no Lua 5.4 headers at " .. inc54 .. " (Debian: liblua5.4-dev)")
      return
    end
    local block = slurp("doc/shipping.md"):match("```c engine%.c\n(.-)```")
    assert.is_not_nil(block, "doc/shipping.md has no ```c engine.c block")
    local d = dist()
    local src, exe = d .. "/engine.c", d .. "/engine"
    local f = assert(io.open(src, "wb"))
    f:write("#include <stdio.h>\n#include \"lualib.h\"\n", block, [[
int main(void) {
  lua_State *L = luaL_newstate();
  int rc;
  luaL_openlibs(L);
  open_astar(L);
  rc = luaL_dostring(L,
    "package.path = 'lua/?.lua;lua/?/init.lua' package.cpath = '' "
    "local g = require('astar').grid(10, 10) "
    "for y = 1, 8 do g:set_blocked(5, y, true) end "
    "local p = assert(g:find_path(1, 1, 10, 1)) "
    "print(('engine path cost %.4f'):format(p.cost))");
  if (rc != 0) fprintf(stderr, "%s\n", lua_tostring(L, -1));
  lua_close(L);
  return rc;
}
]])
    f:close()
    local ok, out = run(("%s -std=c99 -pedantic -Werror -Wall -Wextra -O0 -I%s -o %s %s %s -llua5.4 %s && %s"):format(
      cc, inc54, quote(exe), quote(src), quote(d .. "/astar.c"), LIBS, quote(exe)))
    assert(ok, "the embedding program did not build or run:\n" .. out)
    local cost = tonumber(out:match("engine path cost ([%d.]+)"))
    local astar = require("astar")
    local g = astar.grid(10, 10)
    for y = 1, 8 do g:set_blocked(5, y, true) end
    assert.are.equal(("%.4f"):format(assert(g:find_path(1, 1, 10, 1)).cost), ("%.4f"):format(cost or -1))
    os.remove(src); os.remove(exe)
  end)

  teardown(function()
    if dir then run("rm -rf " .. quote(dir)) end
  end)
end)
