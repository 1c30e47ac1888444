-- Issue 18, the queries' loose ends: the planner watches the forbid fields
-- its paths were made with, grid:flee keeps its second search state with
-- the grid, field:version().
local astar = require("astar")

local drain = require("helpers").drain

describe("astar.planner and forbid fields", function()
  it("says when a forbid field's change breaks a delivered path, and leaves the others", function()
    local g = astar.grid(30, 9)
    local f = astar.field(g)
    local u = { x = 1, y = 5 }
    local pl = astar.planner(g, { locate = function(k) return k.x, k.y end })
    pl:request(u, { 1, 5 }, { 30, 5 }, { forbid = f })
    local plain = {}
    pl:request(plain, { 1, 1 }, { 30, 1 })           -- made without the field
    local got = drain(pl, { expansions = 1000 })
    local path
    for _, r in ipairs(got) do if r.key == u then path = r.path end end
    f:set(25, 9, 1)                                  -- off every path: nothing
    assert.same({}, pl:update({ expansions = 1000 }))
    assert.equal("watching", pl:status(u))
    local c = path.xy[20]
    f:set(c[1], c[2], 1)                             -- ahead of the unit
    local out = pl:update({ expansions = 1000 })
    assert.equal(u, out[1].key)
    assert.equal("invalidated", out[1].reason)
    assert.equal(20, out[1].broken)
    assert.is_not_nil(out[2].path)                   -- searched again around it
    for _, xy in ipairs(out[2].path.xy) do
      assert.is_false(xy[1] == c[1] and xy[2] == c[2])
    end
    assert.equal("watching", pl:status(plain))       -- the field is not its
    -- behind the unit: no longer its business
    u.x, u.y = out[2].path.xy[15][1], out[2].path.xy[15][2]
    local behind = out[2].path.xy[5]
    f:set(behind[1], behind[2], 1)
    assert.same({}, pl:update({ expansions = 1000 }))
  end)

  it("forgets a field with its last path, and a closed field is left alone", function()
    local g = astar.grid(20, 5)
    local f = astar.field(g)
    local pl = astar.planner(g)
    pl:request("a", { 1, 3 }, { 20, 3 }, { forbid = f })
    drain(pl, { expansions = 1000 })
    assert.is_true(pl:cancel("a"))
    f:set(10, 3, 1)
    assert.same({}, pl:update({ expansions = 10 }))
    pl:request("b", { 1, 3 }, { 20, 3 }, { forbid = f })
    drain(pl, { expansions = 1000 })
    f:close()
    assert.same({}, pl:update({ expansions = 10 }))
    assert.equal("watching", pl:status("b"))
  end)
end)

describe("field:version()", function()
  it("changes with every change of the values, not with a write that changes nothing", function()
    local g = astar.grid(8, 8)
    local f = astar.field(g)
    local v = f:version()
    f:set(1, 1, 0)
    assert.equal(v, f:version())
    f:set(1, 1, 2)
    assert.is_true(f:version() ~= v)
    v = f:version()
    f:fill(2)
    assert.is_true(f:version() ~= v)
    v = f:version()
    f:add_disc(4, 4, 2, 1)
    assert.is_true(f:version() ~= v)
  end)
end)

-- a userdata's user value (its environment table before 5.2)
local getuv = debug.getuservalue or debug.getfenv

describe("grid:flee", function()
  it("keeps its threats' search state with the grid: one state for every call, the same answers", function()
    local g = astar.grid(40, 40)
    for y = 5, 35 do g:set_blocked(20, y, true) end
    local first = g:flee(10, 20, { { 12, 20 } }, { max_cost = 15 })
    local uv = getuv(g)
    local state = uv.search2
    assert.is_not_nil(state)
    for _ = 1, 20 do
      local p = g:flee(10, 20, { { 12, 20 } }, { max_cost = 15 })
      assert.equal(first.cost, p.cost)
      assert.equal(first.threat_distance, p.threat_distance)
      assert.equal(state, getuv(g).search2)
    end
  end)
end)
