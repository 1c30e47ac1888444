-- The arguments of issue 17's additions: a step's budget table, version(),
-- grid:changes(since [, max]), path_valid(path [, from_index [, opts]]) on
-- grids, hex grids and graphs.  Every wrong value gets a message naming the
-- function, the argument and the value; the objects stay usable.
local astar = require("astar")
local error_of = require("helpers").error_of
local H = require("hostile.common")
local VALUES, NONE, absent, is_num, is_int = H.VALUES, H.NONE, H.absent, H.is_num, H.is_int

-- The type an error names: userdata by their class.
local function tname(e) return e.ud and e.d or e.t end

local function call(f, v, ...)
  if v == NONE then return f() end
  return f(v, ...)
end

describe("hostile budgets for step", function()
  local cases = {
    { {}, "budget table needs n or time" },
    { { n = 0 }, "n must be an integer in 1..2^53, got 0" },
    { { n = 1.5 }, "n must be an integer in 1..2^53, got 1.5" },
    { { n = "2" }, 'n must be an integer in 1..2^53, got "2"' },
    { { time = 0 }, "time must be a finite number of seconds > 0, got 0" },
    { { time = -1 }, "time must be a finite number of seconds > 0, got -1" },
    { { time = 0 / 0 }, "time must be a finite number of seconds > 0, got nan" },
    { { time = math.huge }, "time must be a finite number of seconds > 0, got inf" },
    { { time = "1" }, 'time must be a finite number of seconds > 0, got "1"' },
    { { time = true }, "time must be a finite number of seconds > 0, got true" },
    { { ms = 5 }, 'budget keys are n and time, got "ms"' },
    { { 5 }, "budget keys are n and time, got 1" },
    { { n = 1, time = 1, extra = 1 }, 'budget keys are n and time, got "extra"' },
  }
  for i, c in ipairs(cases) do
    it("refuses budget " .. i .. " (" .. c[2] .. ") on path and distances queries", function()
      local g = astar.grid(16, 16)
      local q = g:query(1, 1, 16, 16, { algorithm = "astar" })
      local d = g:distances_query({ { 1, 1 } })
      assert.equal("bad argument #1 to 'step' (" .. c[2] .. ")", error_of(function() return q:step(c[1]) end))
      assert.equal("bad argument #1 to 'step' (" .. c[2] .. ")", error_of(function() return d:step(c[1]) end))
      assert.equal("searching", q:status())
      assert.equal("searching", q:step({ n = 3 }))
      assert.equal("found", q:step({ time = 10 }))
      assert.equal(g:find_path(1, 1, 16, 16).cost, q:result().cost)
      assert.equal("done", d:step({ n = 100000, time = 10 }))
    end)
  end
end)

describe("hostile grid:changes", function()
  local function since_ok(e, now)
    return is_num(e) and is_int(e.v) and e.v >= 0 and e.v <= now
  end
  for _, e in ipairs(VALUES) do
    it("since = " .. e.label, function()
      local g = astar.grid(4, 4)
      g:set_blocked(2, 2, true); g:set_blocked(3, 3, true)
      local now = g:version()
      if since_ok(e, now) then
        local ids, v = g:changes(e.v)
        assert.equal(now, v)
        assert.equal(now - e.v, #ids)
      else
        assert.equal(("bad argument #1 to 'changes' (%s)"):format(
          (absent(e) or not is_num(e)) and ("number expected, got " .. tname(e))
          or ("since must be an integer in 0..2, got " .. e.d)),
          error_of(function() return call(function(...) return g:changes(...) end, e.v) end))
      end
      assert.equal(2, #g:changes(0))
    end)
    it("max = " .. e.label, function()
      local g = astar.grid(4, 4)
      g:set_blocked(2, 2, true)
      local f = function(...) return g:changes(0, ...) end
      if absent(e) or (is_num(e) and is_int(e.v) and e.v >= 1 and e.v <= 4096) then
        assert.equal(1, #call(f, e.v))
      else
        assert.equal(("bad argument #2 to 'changes' (%s)"):format(
          not is_num(e) and ("number expected, got " .. tname(e))
          or ("max must be an integer in 1..4096, got " .. e.d)),
          error_of(function() return call(f, e.v) end))
      end
    end)
  end

  it("says overflow once the log no longer reaches back, and for too many", function()
    local g = astar.grid(100, 100)
    local v0 = g:version()
    for i = 1, 4097 do g:set_blocked(1 + i % 100, 1 + math.floor(i / 100) % 100, true) end
    local none, why = g:changes(v0)
    assert.is_nil(none)
    assert.equal("overflow", why)
    assert.equal(4096, #g:changes(v0 + 1))
    assert.same({ nil, "overflow" }, { g:changes(g:version() - 10, 9) })
    assert.equal(10, #g:changes(g:version() - 10, 10))
  end)
end)

describe("hostile path_valid", function()
  local function fixtures()
    local g = astar.grid(8, 8)
    local hx = astar.hex(8, 8)
    local gr = astar.graph()
    for i = 1, 4 do gr:add_node(i, 0) end
    for i = 1, 3 do gr:add_edge(i, i + 1, 1) end
    return {
      { g, g:find_path(1, 1, 8, 1), "grid", "cell id in 1..64" },
      { hx, hx:find_path(1, 1, 8, 1), "hex", "cell id in 1..64" },
      { gr, gr:find_path(1, 4), "graph", "node id in 1..4" },
    }
  end

  for _, e in ipairs(VALUES) do
    it("path = " .. e.label, function()
      for _, f in ipairs(fixtures()) do
        local t, p = f[1], f[2]
        if type(e.v) == "table" then
          assert.equal("bad argument #1 to 'path_valid' (path.nodes must be a list of "
            .. (f[3] == "graph" and "node" or "cell") .. " ids, got nil)",
            error_of(function() return t:path_valid(e.v) end))
        else
          assert.equal("bad argument #1 to 'path_valid' (table (a path) expected, got " .. tname(e) .. ")",
            error_of(function() return call(function(...) return t:path_valid(...) end, e.v) end))
        end
        assert.is_true(t:path_valid(p))
      end
    end)
    it("from_index = " .. e.label, function()
      for _, f in ipairs(fixtures()) do
        local t, p = f[1], f[2]
        local n = #p.nodes
        local fn = function(...) return t:path_valid(p, ...) end
        if absent(e) or (is_num(e) and is_int(e.v) and e.v >= 1 and e.v <= n) then
          assert.is_true(call(fn, e.v))
        else
          assert.equal(("bad argument #2 to 'path_valid' (%s)"):format(
            not is_num(e) and ("number expected, got " .. tname(e))
            or ("from_index must be an integer in 1.." .. n .. ", got " .. e.d)),
            error_of(function() return call(fn, e.v) end))
        end
      end
    end)
  end

  it("refuses tables that are no path of the topology, naming the entry", function()
    local g = astar.grid(8, 8)
    local cases = {
      { { nodes = {} }, "path.nodes must hold at least one cell, got 0 entries" },
      { { nodes = { 1, "x" } }, 'path.nodes[2] must be a cell id in 1..64, got "x"' },
      { { nodes = { 1, 65 } }, "path.nodes[2] must be a cell id in 1..64, got 65" },
      { { nodes = { 1, 1.5 } }, "path.nodes[2] must be a cell id in 1..64, got 1.5" },
      { { nodes = { 1, 3 } }, "path.nodes[2] (cell (3, 1)) is not a neighbour of the cell before it" },
      { { nodes = { 1, 1 } }, "path.nodes[2] (cell (1, 1)) repeats the cell before it" },
      { { nodes = { 1 }, size = 0 }, "path.size must be an integer in 1..255, got 0" },
      { { nodes = { 1 }, size = "2" }, 'path.size must be an integer in 1..255, got "2"' },
    }
    for _, c in ipairs(cases) do
      assert.equal("bad argument #1 to 'path_valid' (" .. c[2] .. ")", error_of(function() return g:path_valid(c[1]) end))
    end
    assert.equal('bad argument #3 to \'path_valid\' (unknown option "sise")',
      error_of(function() return g:path_valid({ nodes = { 1 } }, 1, { sise = 2 }) end))
    assert.equal("bad argument #3 to 'path_valid' (table expected, got number)",
      error_of(function() return g:path_valid({ nodes = { 1 } }, 1, 5) end))
    local gr = astar.graph()
    for i = 1, 3 do gr:add_node(i, 0) end
    local e = gr:add_edge(1, 2, 1)
    local e2 = gr:add_edge(2, 3, 1)
    local gcases = {
      { { nodes = { 1, 2 } }, "path.edges must be a list of edge ids, got nil" },
      { { nodes = { 1, 2 }, edges = { 9 } }, "path.edges[1] must be an edge id in 1..2, got 9" },
      { { nodes = { 1, 2 }, edges = { e2 } }, "path.edges[1] (edge 2) does not lead from path.nodes[1] to path.nodes[2]" },
      { { nodes = { 1, 5 }, edges = { e } }, "path.nodes[2] must be a node id in 1..3, got 5" },
    }
    for _, c in ipairs(gcases) do
      assert.equal("bad argument #1 to 'path_valid' (" .. c[2] .. ")", error_of(function() return gr:path_valid(c[1]) end))
    end
    assert.is_true(gr:path_valid({ nodes = { 1, 2, 3 }, edges = { e, e2 } }))
    assert.is_true(g:path_valid({ nodes = { 1, 2 } }))
  end)

  it("version takes no argument it reads and stays a number", function()
    for _, t in ipairs({ astar.grid(2, 2), astar.hex(2, 2), astar.graph() }) do
      assert.equal(0, t:version())
      assert.equal(0, t:version("ignored"))
      assert.equal("bad argument #1 to 'version' (astar.Grid expected, got number)",
        error_of(function() return astar.grid(2, 2).version(5) end))
    end
  end)
end)
