-- Hostile input to smoothing and any-angle paths: the smooth and any_angle
-- options with wrong values and wrong company, grid:smooth with forged and
-- foreign paths; every refusal names the function, the argument and the
-- value, and the grid stays usable.
local astar = require("astar")
local error_of = require("helpers").error_of

local function usable(g)
  local p = g:find_path(1, 1, 4, 4, { smooth = true })
  assert.is_table(p.points)
  assert.is_table(g:find_path(1, 1, 4, 4, { any_angle = true }).points)
end

describe("hostile smooth and any_angle options", function()
  local g = astar.grid(4, 4)
  local f = function(opts) return function() return g:find_path(1, 1, 4, 4, opts) end end

  it("refuse values that are not booleans", function()
    for _, name in ipairs({ "smooth", "any_angle" }) do
      for _, c in ipairs({ { "yes", '"yes"' }, { 1, "1" }, { 0 / 0, "nan" }, { {}, "table" },
                           { g, "astar.Grid" }, { print, "function" } }) do
        assert.equal(("bad argument #5 to 'find_path' (%s must be a boolean, got %s)"):format(name, c[2]),
          error_of(f({ [name] = c[1] })))
        assert.equal(("bad argument #5 to 'query' (%s must be a boolean, got %s)"):format(name, c[2]),
          error_of(function() return g:query(1, 1, 4, 4, { [name] = c[1] }) end))
      end
    end
    usable(g)
  end)

  it("refuse the options any-angle search cannot honour", function()
    local cases = {
      { cost = function() return 1 end }, "cost",
      { heuristic = "zero" }, "heuristic",
      { stop = "optimal" }, "stop",
      { tie_break = "fifo" }, "tie_break",
      { trace = true }, "trace",
    }
    for i = 1, #cases, 2 do
      local o = cases[i]
      o.any_angle = true
      assert.equal(("bad argument #5 to 'find_path' (option \"%s\" cannot be combined with any_angle)")
        :format(cases[i + 1]), error_of(f(o)))
    end
    -- false is no any-angle search: everything goes
    assert.is_table(g:find_path(1, 1, 4, 4, { any_angle = false, trace = true, stop = "optimal" }))
    usable(g)
  end)

  it("are only for square grids", function()
    local gr = astar.graph()
    gr:add_node(0, 0)
    assert.equal("bad argument #3 to 'find_path' (option \"smooth\" is only for grids)",
      error_of(function() return gr:find_path(1, 1, { smooth = true }) end))
    assert.equal("bad argument #3 to 'find_path' (option \"any_angle\" is only for grids)",
      error_of(function() return gr:find_path(1, 1, { any_angle = true }) end))
    assert.equal("bad argument #2 to 'distances' (option \"smooth\" does not apply to distances)",
      error_of(function() return g:distances({ { 1, 1 } }, { smooth = true }) end))
  end)

  it("raise on a bad rate met only by a segment, naming the cell", function()
    local h = astar.grid(5, 5)
    local pen = astar.field(h)
    pen:set(3, 3, -5)   -- a negative penalty the cell path never enters
    local msg = "cell (3, 3) would cost -4 per unit of length (penalty * penalty_scale and "
      .. "tag factors must keep costs finite and >= 0)"
    assert.equal(msg, error_of(function() return h:find_path(1, 1, 5, 5, { any_angle = true, penalty = pen }) end))
    -- the grid search itself refuses entering that cell the same way
    assert.is_true(pcall(h.find_path, h, 1, 2, 1, 4, { penalty = pen }))
    h:set_blocked(3, 3, false)
    usable(h)
  end)
end)

describe("hostile grid:smooth", function()
  local g = astar.grid(4, 4)
  g:set_blocked(2, 2, true)
  it("refuses what is not a path of this grid", function()
    local P = "bad argument #1 to 'smooth' ("
    local cases = {
      { nil, "table (a path) expected, got no value" },
      { 3, "table (a path) expected, got number" },
      { "path", "table (a path) expected, got string" },
      { {}, "path.nodes must be a list of cell ids, got nil" },
      { { nodes = "1,2" }, 'path.nodes must be a list of cell ids, got "1,2"' },
      { { nodes = {} }, "path.nodes must hold 1..128 cells, got 0" },
      { { nodes = { 0 } }, "path.nodes[1] must be a cell id of the 4x4 grid, got 0" },
      { { nodes = { 17 } }, "path.nodes[1] must be a cell id of the 4x4 grid, got 17" },
      { { nodes = { 1, 1.5 } }, "path.nodes[2] must be a cell id of the 4x4 grid, got 1.5" },
      { { nodes = { 1, 0 / 0 } }, "path.nodes[2] must be a cell id of the 4x4 grid, got nan" },
      { { nodes = { 1, "2" } }, 'path.nodes[2] must be a cell id of the 4x4 grid, got "2"' },
      { { nodes = { 1, math.huge } }, "path.nodes[2] must be a cell id of the 4x4 grid, got inf" },
      { { nodes = { 1, 6 } }, "path.nodes[2] is cell (2, 2), which is blocked" },
      { { nodes = { 1, 3 } }, "path.nodes[2] (cell (3, 1)) is not a neighbour of the cell before it" },
      { { nodes = { 4, 5 } }, "path.nodes[2] (cell (1, 2)) is not a neighbour of the cell before it" },
    }
    for _, c in ipairs(cases) do
      if c[1] == nil then
        assert.equal(P .. c[2] .. ")", error_of(function() return g:smooth() end))
      else
        assert.equal(P .. c[2] .. ")", error_of(function() return g:smooth(c[1]) end))
      end
    end
    -- a path of another grid: its cells are blocked or not neighbours here
    local other = astar.grid(8, 2)
    local p = other:find_path(1, 1, 8, 1)
    assert.equal(P .. "path.nodes[5] (cell (1, 2)) is not a neighbour of the cell before it)",
      error_of(function() return g:smooth(p) end))
    -- a path whose cells were blocked since
    local h = astar.grid(5, 1)
    local q = h:find_path(1, 1, 5, 1)
    h:set_blocked(3, 1, true)
    assert.equal(P .. "path.nodes[3] is cell (3, 1), which is blocked)",
      error_of(function() return h:smooth(q) end))
    usable(g)
  end)

  it("refuses steps the grid's move rule does not allow, naming the entry and the rule", function()
    local P = "bad argument #1 to 'smooth' ("
    local function refuses(grid, nodes, opts, msg)
      assert.equal(P .. msg .. ")", error_of(function() return grid:smooth({ nodes = nodes }, opts) end))
    end
    -- no_corner_cutting (the default): a diagonal past a blocked side
    -- cell, either way; the detour is a path
    local ncc = astar.grid(4, 4)
    ncc:set_blocked(2, 1, true)
    refuses(ncc, { 1, 6 }, nil, 'path.nodes[2] (cell (2, 2)) is a diagonal step from the cell before it '
      .. 'past cell (2, 1), which is blocked (diagonal = "no_corner_cutting" needs both side cells open)')
    refuses(ncc, { 5, 6, 1 }, nil, 'path.nodes[3] (cell (1, 1)) is a diagonal step from the cell before '
      .. 'it past cell (2, 1), which is blocked (diagonal = "no_corner_cutting" needs both side cells open)')
    assert.equal(3, #ncc:smooth({ nodes = { 1, 5, 6 } })) -- and no corner cut by the points
    -- never: no diagonal at all
    local never = astar.grid(4, 4, { diagonal = "never" })
    refuses(never, { 1, 2, 7 }, nil, 'path.nodes[3] (cell (3, 2)) is a diagonal step from the cell before '
      .. 'it (diagonal = "never" allows none)')
    assert.is_table(never:smooth({ nodes = { 1, 2, 6, 7 } }))
    -- one_obstacle: a diagonal needs one side cell open
    local one = astar.grid(4, 4, { diagonal = "one_obstacle" })
    one:set_blocked(2, 1, true)
    assert.is_table(one:smooth({ nodes = { 1, 6 } }))
    one:set_blocked(1, 2, true)
    refuses(one, { 1, 6 }, nil, 'path.nodes[2] (cell (2, 2)) is a diagonal step from the cell before it '
      .. 'past cell (2, 1), which is blocked, and cell (1, 2), which is blocked (diagonal = '
      .. '"one_obstacle" needs a side cell open)')
    -- always: only the target must be open, as in a search
    local always = astar.grid(4, 4, { diagonal = "always" })
    always:set_blocked(2, 1, true)
    always:set_blocked(1, 2, true)
    assert.is_table(always:smooth({ nodes = { 1, 6 } }))
    -- a cell followed by itself
    refuses(ncc, { 1, 1, 5 }, nil, "path.nodes[2] (cell (1, 1)) repeats the cell before it")
    refuses(ncc, { 1, 5, 9, 9 }, nil, "path.nodes[4] (cell (1, 3)) repeats the cell before it")
    refuses(ncc, { 16, 16 }, nil, "path.nodes[2] (cell (4, 4)) repeats the cell before it")
    assert.same({ { 1, 1 } }, ncc:smooth({ nodes = { 1 } }))
    -- an any-angle path's cells take a diagonal step where a segment passes
    -- a corner, also on "never" grids: not a path of that grid (its points
    -- are straight already)
    local aa = assert(never:find_path(1, 1, 3, 3, { any_angle = true }))
    assert.equal(P .. 'path.nodes[2] (cell (2, 2)) is a diagonal step from the cell before it '
      .. '(diagonal = "never" allows none))', error_of(function() return never:smooth(aa) end))
    usable(ncc)
    one:set_blocked(1, 2, false)
    usable(one)
  end)

  it("refuses cells the options forbid, and blocks a unit of that size does not fit", function()
    local P = "bad argument #1 to 'smooth' ("
    local function refuses(grid, nodes, opts, msg)
      assert.equal(P .. msg .. ")", error_of(function() return grid:smooth({ nodes = nodes }, opts) end))
    end
    -- forbid: a forbidden cell is as closed as a blocked one, for the cells
    -- a path stands on and for a diagonal step's side cells (as in a search)
    local g4 = astar.grid(4, 4)
    local forbid = astar.field(g4)
    forbid:set(2, 1, 1)
    local o = { forbid = forbid }
    refuses(g4, { 1, 2, 3 }, o, "path.nodes[2] is cell (2, 1), which the forbid field forbids")
    refuses(g4, { 2, 3 }, o, "path.nodes[1] is cell (2, 1), which the forbid field forbids")
    refuses(g4, { 1, 6 }, o, 'path.nodes[2] (cell (2, 2)) is a diagonal step from the cell before it '
      .. 'past cell (2, 1), which the forbid field forbids (diagonal = "no_corner_cutting" needs both '
      .. 'side cells open)')
    assert.is_table(g4:smooth({ nodes = { 1, 2, 3 } }))   -- without the options: a path
    assert.is_table(g4:smooth({ nodes = { 1, 5, 6, 7 } }, o))
    -- a tag whose factor is false forbids its cells exactly as the forbid
    -- field does: not entered, no start, no side cell of a diagonal
    g4:set_tag(2, 1, "lava")
    local lava = { costs = { lava = false } }
    refuses(g4, { 1, 2 }, lava, 'path.nodes[2] is cell (2, 1), whose tag "lava" the costs forbid')
    refuses(g4, { 2, 3 }, lava, 'path.nodes[1] is cell (2, 1), whose tag "lava" the costs forbid')
    refuses(g4, { 1, 6 }, lava, 'path.nodes[2] (cell (2, 2)) is a diagonal step from the cell before it '
      .. 'past cell (2, 1), whose tag "lava" the costs forbid (diagonal = "no_corner_cutting" needs both '
      .. 'side cells open)')
    assert.is_table(g4:smooth({ nodes = { 1, 5, 6, 7 } }, lava))
    assert.is_table(g4:smooth({ nodes = { 1, 2 } }, { costs = { lava = 3 } }))
    -- size = k: the cells are the top-left cells of the unit's block
    local g5 = astar.grid(5, 5)
    g5:set_blocked(3, 3, true)
    local two = { size = 2 }
    refuses(g5, { 7 }, two, "path.nodes[1] is cell (2, 2), where the unit (size 2) covers cell (3, 3), "
      .. "which is blocked")
    refuses(g5, { 4, 5 }, two, "path.nodes[2] is cell (5, 1), where the unit (size 2) leaves the grid")
    refuses(g5, { 1, 7 }, two, "path.nodes[2] is cell (2, 2), where the unit (size 2) covers cell "
      .. "(3, 3), which is blocked")
    assert.is_table(g5:smooth({ nodes = { 1, 2, 3, 4 } }, two))
    usable(g4)
    usable(g5)
  end)

  it("checks its options like find_path's", function()
    local p = g:find_path(1, 1, 4, 4)
    assert.equal("bad argument #2 to 'smooth' (table expected, got number)",
      error_of(function() return g:smooth(p, 5) end))
    assert.equal("bad argument #2 to 'smooth' (unknown option \"speed\")",
      error_of(function() return g:smooth(p, { speed = 1 }) end))
    assert.equal("bad argument #2 to 'smooth' (option \"any_angle\" does not apply to smooth)",
      error_of(function() return g:smooth(p, { any_angle = true }) end))
    assert.equal("bad argument #2 to 'smooth' (option \"cost\" cannot be combined with smooth)",
      error_of(function() return g:smooth(p, { smooth = true, cost = print }) end))
    assert.equal("bad argument #2 to 'smooth' (penalty field is 2x2 but the grid is 4x4)",
      error_of(function() return g:smooth(p, { penalty = astar.field(astar.grid(2, 2)) }) end))
    -- a path table with a metatable that lies: read raw, checked
    local liar = setmetatable({ nodes = { 1, 5 } }, { __index = function() error("no") end })
    assert.same({ { 1, 1 }, { 1, 2 } }, g:smooth(liar))
    usable(g)
  end)

  it("is refused on a closed grid and from inside a search of it", function()
    local h = astar.grid(4, 4)
    local p = h:find_path(1, 1, 4, 4)
    local inner
    h:find_path(1, 1, 4, 4, { heuristic = function()
      inner = inner or select(2, pcall(h.smooth, h, p))
      return 0
    end })
    assert.is_true(type(inner) == "table" or type(inner) == "string")
    h:close()
    assert.equal("attempt to use a closed grid", error_of(function() return h:smooth(p) end))
  end)
end)
