-- The path methods and the follower (lua/astar/follow.lua) with every kind
-- of wrong value at every argument: the exact message, and the path and the
-- follower unchanged and still working after a refused call.  Paths that
-- are not a grid's, paths their owner broke, paths of a closed grid.
local astar = require("astar")
local error_of = require("helpers").error_of
local H = require("hostile.common")
local NONE, NAN, HUGE, VALUES, caller = H.NONE, H.NAN, H.HUGE, H.VALUES, H.caller

local function new_path()
  local g = astar.grid(6, 4, { cell_size = 2 })
  return assert(g:find_path(1, 1, 6, 4)), g
end

-- a healthy path: its walk still answers
local function path_ok(p)
  local L = p:world_length()
  assert.is_true(L > 0)
  local x, y = p:point_at(L)
  assert.same({ 11, 7 }, { x, y })
  assert.equal(0, (p:project(1, 1)))
end

local function number_kind(name)
  return function(e)
    if e.v == NONE or type(e.v) ~= "number" or e.v ~= e.v then
      return ("%s must be a number, got %s"):format(name, e.v == NONE and "nil" or e.d)
    end
  end
end

describe("hostile path methods", function()
  local SIGS = {
    point_at = { { number_kind("distance"), 1 } },
    project = { { number_kind("x"), 1 }, { number_kind("y"), 1 } },
  }
  for m, sig in pairs(SIGS) do
    for i, s in ipairs(sig) do
      for _, e in ipairs(VALUES) do
        local want = s[1](e)
        it(("%s argument #%d as %s"):format(m, i, e.label), function()
          local p = new_path()
          local args, n = {}, 0
          for j, sj in ipairs(sig) do
            if j == i then
              if e.v == NONE then break end
              args[j] = e.v
            else
              args[j] = sj[2]
            end
            n = j
          end
          if want then
            assert.equal(("bad argument #%d to '%s' (%s)"):format(i, m, want),
              error_of(caller(m), p, (table.unpack or unpack)(args, 1, n)))
          else
            caller(m)(p, (table.unpack or unpack)(args, 1, n))
          end
          path_ok(p)
        end)
      end
    end
  end

  it("infinite distances clamp", function()
    local p = new_path()
    assert.same({ p:point_at(0) }, { p:point_at(-HUGE) })
    assert.same({ p:point_at(p:world_length()) }, { p:point_at(HUGE) })
    assert.equal(0, (p:project(-HUGE, -HUGE)))   -- the nearest point of an infinitely far one: an end
  end)

  it("a path its owner broke says what is wrong, and works again when repaired", function()
    local p = new_path()
    local nodes = p.nodes
    local cases = {
      { { nodes = "x" }, "calling 'point_at' on bad self (the path has neither points nor nodes)" },
      { { nodes = {} }, "calling 'point_at' on bad self (the path is empty)" },
      { { nodes = { 1, "2" } }, 'calling \'point_at\' on bad self (path.nodes[2] must be a cell id, got "2")' },
      { { nodes = { 1, 0.5 } }, "calling 'point_at' on bad self (path.nodes[2] must be a cell id, got 0.5)" },
      { { nodes = { 1, 99 } }, "calling 'point_at' on bad self (path.nodes[2] is not a cell of the path's grid "
        .. "(y must be an integer in 1..4, got 17))" },
      { { width = 0 }, "calling 'point_at' on bad self (path.width must be an integer >= 1, got 0)" },
      { { points = { { 1, 1 }, 7 } }, "calling 'point_at' on bad self (path.points[2] must be a cell {x, y}, got 7)" },
      { { points = { { 1, 1 }, { 9, 1 } } }, "calling 'point_at' on bad self (path.points[2] is not a cell of the "
        .. "path's grid (x must be an integer in 1..6, got 9))" },
    }
    for _, c in ipairs(cases) do
      local q = new_path()
      for k, v in pairs(c[1]) do q[k] = v end
      assert.equal(c[2], error_of(q.point_at, q, 1))
    end
    p.nodes = { 1, 2 }
    assert.equal(2, p:world_length())
    p.nodes = nodes
    path_ok(p)
  end)

  it("not a path of a grid: a table, a graph's path", function()
    local point_at = new_path().point_at
    assert.equal("calling 'point_at' on bad self (not a path of a grid or hex grid)", error_of(point_at, {}, 1))
    assert.equal("calling 'point_at' on bad self (path expected, got 3)", error_of(point_at, 3, 1))
    local g = astar.graph()
    g:add_node(0, 0)
    assert.equal("calling 'point_at' on bad self (not a path of a grid or hex grid)",
      error_of(point_at, g:find_path(1, 1), 1))
  end)

  it("a path of a closed grid", function()
    local p, g = new_path()
    g:close()
    assert.equal("calling 'world_length' on bad self (the path's grid is closed)", error_of(p.world_length, p))
    local q, g2 = new_path()
    q:world_length()            -- read before the close: kept
    g2:close()
    path_ok(q)
  end)
end)

describe("hostile follower", function()
  local function new_follower(opts) return astar.follower((new_path()), opts) end
  -- it walks on and arrives: at the end, or radius before it
  local function follower_ok(f)
    local x, y, arrived
    repeat x, y, arrived = f:update(1) until arrived
    if f.radius == 0 then assert.same({ 11, 7 }, { x, y }) end
    assert.is_true(math.abs(f:remaining() - math.min(f.radius, f.path:world_length())) < 1e-9)
  end

  for _, e in ipairs(VALUES) do
    it("follower's path as " .. e.label, function()
      local want = e.v == NONE and "path expected, got no value" or (type(e.v) == "table" and
        "not a path of a grid or hex grid" or "path expected, got " .. e.d)
      if e.v == nil and e.v ~= NONE then want = "path expected, got nil" end
      if e.v == NONE then
        assert.equal("bad argument #1 to 'follower' (path expected, got nil)", error_of(astar.follower))
      else
        assert.equal("bad argument #1 to 'follower' (" .. want .. ")", error_of(astar.follower, e.v))
      end
    end)
    it("follower's options as " .. e.label, function()
      if e.v == NONE or e.v == nil then
        follower_ok(astar.follower((new_path()), e.v ~= NONE and e.v or nil))
      elseif type(e.v) ~= "table" then
        assert.equal("bad argument #2 to 'follower' (table expected, got " .. e.d .. ")",
          error_of(astar.follower, (new_path()), e.v))
      end
    end)
    for _, opt in ipairs({ "speed", "radius" }) do
      it(("follower option %s = %s"):format(opt, e.label), function()
        local v = e.v
        if v == NONE then v = nil end
        local ok
        if opt == "speed" then ok = v == nil or (type(v) == "number" and v > 0 and v < HUGE)
        else ok = v == nil or (type(v) == "number" and v >= 0 and v < HUGE) end
        if ok then
          follower_ok(new_follower({ [opt] = v }))
        else
          local must = opt == "speed" and "speed must be a finite number > 0" or "radius must be a finite number >= 0"
          assert.equal(("bad argument #2 to 'follower' (%s, got %s)"):format(must, e.d),
            error_of(astar.follower, (new_path()), { [opt] = v }))
        end
      end)
    end
    it("update's dt as " .. e.label, function()
      local f = new_follower({ speed = 0.5 })
      local before = { f:position() }
      local v = e.v
      if v == NONE then v = nil end
      if type(v) == "number" and v >= 0 and v < HUGE then
        f:update(v)
      else
        local d = e.v == NONE and "nil" or e.d
        assert.equal("bad argument #1 to 'update' (dt must be a finite number >= 0, got " .. d .. ")",
          error_of(caller("update"), f, v))
        assert.same(before, { f:position() })
      end
      follower_ok(f)
    end)
    it("retarget's path as " .. e.label, function()
      local f = new_follower()
      f:update(1)
      local before = { f:position() }
      if e.v ~= NONE then
        local msg = error_of(caller("retarget"), f, e.v)
        assert.truthy(msg:find("^bad argument #1 to 'retarget' %("), msg)
      end
      assert.same(before, { f:position() })
      follower_ok(f)
    end)
  end

  it("unknown options and NaN", function()
    assert.equal('bad argument #2 to \'follower\' (unknown option "sped")',
      error_of(astar.follower, (new_path()), { sped = 1 }))
    assert.equal("bad argument #2 to 'follower' (speed must be a finite number > 0, got nan)",
      error_of(astar.follower, (new_path()), { speed = NAN }))
  end)
end)

describe("hostile lists of goals and threats", function()
  local function msg(arg, m, what, body)
    return ("bad argument #%d to '%s' (%s)"):format(arg, m, body:gsub("WHAT", what))
  end
  for _, m in ipairs({ "find_nearest", "flee" }) do
    local what = m == "flee" and "threats" or "goals"
    it(m .. ": entries that are not cells of the grid", function()
      local g = H.new_grid()
      local before = H.grid_snapshot(g)
      for _, c in ipairs({
        { { 0, 1 }, "WHAT[1] must be a cell {x, y} inside the 5x4 grid, got table" },
        { { 1 }, "WHAT[1] must be a cell {x, y} inside the 5x4 grid, got table" },
        { { 1.5, 1 }, "WHAT[1] must be a cell {x, y} inside the 5x4 grid, got table" },
        { { "1", 1 }, "WHAT[1] must be a cell {x, y} inside the 5x4 grid, got table" },
        { 3, "WHAT[1] must be a cell {x, y} inside the 5x4 grid, got 3" },
        { { NAN, 1 }, "WHAT[1] must be a cell {x, y} inside the 5x4 grid, got table" },
      }) do
        assert.equal(msg(3, m, what, c[2]), error_of(caller(m), g, 1, 1, { c[1] }))
      end
      assert.equal(msg(3, m, what, "WHAT[2] must be a cell {x, y} inside the 5x4 grid, got table"),
        error_of(caller(m), g, 1, 1, { { 1, 1 }, { 6, 1 } }))
      assert.equal(msg(4, m, what, 'option "direction" does not apply to ' .. m),
        error_of(caller(m), g, 1, 1, { { 2, 2 } }, { direction = "from_sources" }))
      assert.equal(msg(4, m, what, 'option "trace" does not apply to distances'),
        error_of(caller(m), g, 1, 1, { { 2, 2 } }, { trace = true }))
      assert.equal(before, H.grid_snapshot(g))
      H.grid_ok(g)
    end)
  end

  it("graph:find_nearest: goals that are not nodes", function()
    local g = H.new_graph()
    assert.equal("bad argument #2 to 'find_nearest' (goals[2] must be a node id in 1..3, got 4)",
      error_of(caller("find_nearest"), g, 1, { 2, 4 }))
    H.graph_ok(g)
  end)
end)

describe("hostile callbacks in find_nearest and flee", function()
  it("a cost callback that raises: the error reaches the caller, the grid stays usable", function()
    local g = H.new_grid()
    local boom = setmetatable({}, { __tostring = function() return "boom" end })
    local cost = function() error(boom) end
    local ok, err = pcall(g.find_nearest, g, 1, 1, { { 5, 4 } }, { cost = cost })
    assert.is_false(ok)
    assert.equal(boom, err)
    ok, err = pcall(g.flee, g, 1, 1, { { 5, 4 } }, { cost = cost })
    assert.is_false(ok)
    assert.equal(boom, err)
    g:set_blocked(2, 2, true)                     -- not locked any more
    H.grid_ok(g)
    local plus1 = { cost = function(_, _, _, _, c) return c + 1 end }
    assert.equal(g:find_path(1, 1, 5, 4, plus1).cost, g:find_nearest(1, 1, { { 5, 4 } }, plus1).cost)
  end)

  it("a callback that returns a bad value says so", function()
    local g = H.new_grid()
    assert.equal("cost callback returned nil for the step from (1, 1) to (2, 1) (expected a finite number >= 0 or false)",
      error_of(g.find_nearest, g, 1, 1, { { 5, 4 } }, { cost = function() end }))
    H.grid_ok(g)
  end)
end)
