-- Distance fields: graph:distances(sources [, opts]) -> dist, toward and
-- grid:distances({{x, y}, ...} [, opts]) -> field with next_step, against
-- one find_path per node and source, on random graphs and grids (fixed-seed
-- Park-Miller generator: the same worlds on every Lua), with every modifier
-- in both directions.  Every cost here is a multiple of 1/4 (times the grid
-- diagonal, a multiple of 2^-32), so every sum is exact and values are
-- compared with ==.
local astar = require("astar")
local error_of = require("helpers").error_of
local worlds = require("worlds")

local D = astar.DIAGONAL
local RULES = worlds.RULES
local HUGE = math.huge
local with = worlds.with

-- Fast checks for the hot loops: luassert only on failure (same message).
local function eq(want, got, label)
  if want ~= got then assert.equal(want, got, label) end
end

local function yes(cond, label)
  if not cond then assert.is_true(cond, label) end
end

-- ---------------------------------------------------------------------------
-- Graphs
-- ---------------------------------------------------------------------------

-- Random graphs: positions 0..10, costs 0..6 in quarters, some tags, a few
-- disabled nodes.
local GRAPHS = { span = 10, cost = function(r) return r(0, 24) / 4 end,
  tagged = 0.35, tags = { "door", "mud", "ice" }, disabled = 0.08 }

local function random_graph(seed, n, m) return worlds.random_graph(seed, n, m, GRAPHS) end

-- The cost of edge e under the options (tag factors, then the callback), or
-- nil when it cannot be used.
local function edge_cost(w, o, e)
  local ed = w.edges[e]
  if w.disabled[ed[1]] or w.disabled[ed[2]] then return nil end
  local c = ed[3]
  if ed[4] and o.costs and o.costs[ed[4]] ~= nil then
    if o.costs[ed[4]] == false then return nil end
    c = c * o.costs[ed[4]]
  end
  if o.cost then
    c = o.cost(ed[1], ed[2], c, e)
    if c == false then return nil end
  end
  return c
end

local graph_variants = {
  {},
  { costs = { door = 2, mud = false, ice = 0.5 } },
  { cost = function(from, to, c, e)
    local k = (from * 5 + to * 3 + e) % 4
    if k == 0 then return false end
    if k == 1 then return c + 0.75 end
    return c
  end },
  { max_cost = 6 },
  { costs = { door = false, ice = 3 }, max_cost = 9.5, cost = function(_, _, c, e) return e % 3 == 0 and c * 2 or c end },
}

describe("graph:distances", function()
  it("gives the cheapest find_path cost to (or from) any source, and edges that follow it", function()
    local checked, finite, walked = 0, 0, 0
    for seed = 1, 10 do
      local w = random_graph(seed, 22, 66)
      local g, r = w.g, w.r
      local sets = {
        { r(1, w.n) },
        { r(1, w.n), r(1, w.n), r(1, w.n) },
      }
      local dup = r(1, w.n)
      sets[3] = { dup, dup, r(1, w.n), dup } -- duplicates
      local off = nil
      for i = 1, w.n do if w.disabled[i] then off = i end end
      if off then sets[4] = { off, r(1, w.n) } end -- a disabled source is skipped
      for vi, o in ipairs(graph_variants) do
        -- max_cost is left out: it prunes the distance search, not single paths
        local po = worlds.options(o, { heuristic = "zero" })
        local memo = { to_sources = {}, from_sources = {} } -- find_path costs by node and source
        for si, sources in ipairs(sets) do
          for _, direction in ipairs({ "to_sources", "from_sources" }) do
            local opts = with(o, { direction = direction ~= "to_sources" and direction or nil })
            local dist, toward = g:distances(sources, opts)
            local is_source = {}
            for _, s in ipairs(sources) do if not w.disabled[s] then is_source[s] = true end end
            for n = 1, w.n do
              local label = ("seed %d variant %d set %d %s node %d"):format(seed, vi, si, direction, n)
              local want = HUGE
              for _, s in ipairs(sources) do
                local key = n * 100 + s
                local cost = memo[direction][key]
                if not cost then
                  local p
                  if direction == "to_sources" then p = g:find_path(n, s, po) else p = g:find_path(s, n, po) end
                  cost = p and p.cost or HUGE
                  memo[direction][key] = cost
                end
                if cost < want then want = cost end
              end
              if o.max_cost and want > o.max_cost then want = HUGE end
              eq(want, dist[n], label)
              checked = checked + 1
              if want == HUGE or is_source[n] then
                eq(nil, toward[n], label)
              else
                finite = finite + 1
              end
              -- follow the edges to a source: each one is a cheapest first step
              local v, sum, hops = n, 0, 0
              while toward[v] do
                local e = toward[v]
                local from, to = g:edge(e)
                local c = edge_cost(w, o, e)
                yes(c, label)
                if direction == "to_sources" then
                  eq(v, from, label)
                  eq(dist[v], c + dist[to], label)
                  v = to
                else
                  eq(v, to, label)
                  eq(dist[v], dist[from] + c, label)
                  v = from
                end
                sum = sum + c
                hops = hops + 1
                yes(hops <= w.n, label .. ": toward[] loops")
              end
              if dist[n] < HUGE then
                yes(is_source[v], label .. ": did not end at a source")
                eq(dist[n], sum, label)
                walked = walked + 1
              end
            end
          end
        end
      end
    end
    yes(checked > 7000, "checked " .. checked)
    yes(finite > 2000 and walked > finite, ("finite %d, walked %d"):format(finite, walked))
  end)

  it("gives math.huge and no edge for disabled and unreachable nodes, 0 at sources", function()
    local g = astar.graph()
    for i = 1, 5 do g:add_node(i, 0) end
    g:add_edge(1, 2, 1)
    g:add_edge(2, 3, 2)
    g:add_edge(4, 3, 1)
    g:set_enabled(4, false)
    local dist, toward = g:distances({ 3 })
    assert.same({ 3, 2, 0, HUGE, HUGE }, dist)
    assert.same({ 1, 2 }, toward)
    dist, toward = g:distances({ 1 }, { direction = "from_sources" })
    assert.same({ 0, 1, 3, HUGE, HUGE }, dist)
    assert.same({ [2] = 1, [3] = 2 }, toward)
    dist, toward = g:distances({ 4 }) -- only a disabled source: nothing is reached
    assert.same({ HUGE, HUGE, HUGE, HUGE, HUGE }, dist)
    assert.same({}, toward)
    dist = g:distances({ 3, 3, 1 }, { direction = "to_sources" })
    assert.same({ 0, 2, 0, HUGE, HUGE }, dist)
  end)

  local bad = {
    { {}, nil, "bad argument #1 to 'distances' (sources must be a non-empty list)" },
    { 3, nil, "bad argument #1 to 'distances' (table (a list of sources) expected, got number)" },
    { "1", nil, "bad argument #1 to 'distances' (table (a list of sources) expected, got string)" },
    { { 0 }, nil, "bad argument #1 to 'distances' (sources[1] must be a node id in 1..4, got 0)" },
    { { 1, 5 }, nil, "bad argument #1 to 'distances' (sources[2] must be a node id in 1..4, got 5)" },
    { { 1.5 }, nil, "bad argument #1 to 'distances' (sources[1] must be a node id in 1..4, got 1.5)" },
    { { 1, 2, "3" }, nil, "bad argument #1 to 'distances' (sources[3] must be a node id in 1..4, got \"3\")" },
    { { true }, nil, "bad argument #1 to 'distances' (sources[1] must be a node id in 1..4, got true)" },
    { { 1 }, 5, "bad argument #2 to 'distances' (table expected, got number)" },
    { { 1 }, { bogus = 1 }, "bad argument #2 to 'distances' (unknown option \"bogus\")" },
    { { 1 }, { direction = "up" },
      "bad argument #2 to 'distances' (direction must be \"from_sources\" or \"to_sources\", got \"up\")" },
    { { 1 }, { direction = 1 },
      "bad argument #2 to 'distances' (direction must be \"from_sources\" or \"to_sources\", got 1)" },
    { { 1 }, { penalty = 1 }, "bad argument #2 to 'distances' (option \"penalty\" is only for grids)" },
    { { 1 }, { forbid = 1 }, "bad argument #2 to 'distances' (option \"forbid\" is only for grids)" },
    { { 1 }, { max_cost = -1 }, "bad argument #2 to 'distances' (max_cost must be a number >= 0, got -1)" },
    { { 1 }, { costs = { door = -2 } },
      "bad argument #2 to 'distances' (costs.door must be a finite number >= 0 or false, got -2)" },
    { { 1 }, { cost = 4 }, "bad argument #2 to 'distances' (cost must be a function, got 4)" },
  }
  for _, k in ipairs({ "heuristic", "weight", "stop", "tie_break", "trace", "visited", "max_expansions", "partial" }) do
    bad[#bad + 1] = { { 1 }, { [k] = 1 }, "bad argument #2 to 'distances' (option \"" .. k .. "\" does not apply to distances)" }
  end
  for i, c in ipairs(bad) do
    it("refuses bad sources and options with exact messages (" .. i .. ")", function()
      local g = astar.graph()
      for n = 1, 4 do g:add_node(n, 0) end
      for n = 1, 3 do g:add_edge(n, n + 1, 1) end
      assert.equal(c[3], error_of(g.distances, g, c[1], c[2]))
      assert.same({ 3, 2, 1, 0 }, (g:distances({ 4 }))) -- usable afterwards
      g:add_edge(4, 1, 1)
    end)
  end

  it("passes callback errors through and leaves the graph unlocked", function()
    local g = astar.graph()
    for n = 1, 3 do g:add_node(n, 0) end
    g:add_edge(1, 2, 1)
    g:add_edge(2, 3, 1)
    local obj = {}
    local ok, err = pcall(g.distances, g, { 3 }, { cost = function() error(obj) end })
    assert.is_false(ok)
    assert.equal(obj, err)
    assert.equal("cost callback returned -1 for edge 2 from node 2 to node 3 (expected a finite number >= 0 or false)",
      error_of(g.distances, g, { 3 }, { cost = function() return -1 end }))
    assert.equal("cannot call 'add_node': graph is being searched",
      error_of(g.distances, g, { 1 }, { direction = "from_sources", cost = function() g:add_node(0, 0) end }))
    assert.equal(3, g:node_count())
    g:add_edge(3, 1, 1)
    assert.same({ 2, 1, 0 }, (g:distances({ 3 })))
    g:close()
    assert.equal("attempt to use a closed graph", error_of(g.distances, g, { 1 }))
  end)
end)

-- ---------------------------------------------------------------------------
-- Grids
-- ---------------------------------------------------------------------------

-- Random grids: cell costs from 0 to 3, some tags.
local GRIDS = { width = { 3, 9 }, height = { 2, 7 }, density = 0.3,
  costed = 0.35, costs = { 0, 0.5, 1.5, 2, 3 }, tagged = 0.3, tags = { "mud", "lava", "ice" } }

local function random_world(seed) return worlds.random_grid(seed, GRIDS) end

-- Random modifiers: tag factors, a penalty field (>= 0), a forbid field, a
-- cost callback, max_cost; each with probability.
local function random_mods(world)
  local r = world.r
  local o = {}
  if r() < 0.6 then o.costs = { mud = 2, lava = r() < 0.5 and false or 3, ice = 0.5 } end
  if r() < 0.5 then
    o.penalty, o.pen = worlds.random_field(world, function() return r() < 0.4 and ({ 0.25, 1, 2.5 })[r(1, 3)] or 0 end)
    if r() < 0.5 then o.penalty_scale = ({ 0, 0.5, 2 })[r(1, 3)] end
  end
  if r() < 0.4 then
    o.forbid, o.fb = worlds.random_field(world, function() return r() < 0.12 and ({ 1, -1, 0.5 })[r(1, 3)] or 0 end)
  end
  if r() < 0.35 then
    local salt = r(0, 5)
    o.cost = function(x1, y1, x2, y2, c)
      local k = (x1 * 3 + y1 * 5 + x2 * 7 + y2 * 11 + salt) % 5
      if k == 0 then return false end
      if k == 1 then return c * 2 end
      if k == 2 then return c + 0.5 end
      return c
    end
  end
  if r() < 0.3 then o.max_cost = r(2, 12) / 2 end
  return o
end

local oracle = require("grid_oracle") -- the rules in plain Lua
local passable, step_cost = oracle.passable, oracle.step

describe("grid:distances", function()
  it("gives the cheapest find_path cost to (or from) any source; next_step walks it #pure", function()
    local checked, walked, rules = 0, 0, {}
    local mods = {}
    for seed = 1, 40 do
      local world = random_world(seed)
      local g, r = world.g, world.r
      local o = random_mods(world)
      rules[world.rule] = true
      for _, k in ipairs({ "costs", "penalty", "penalty_scale", "forbid", "cost", "max_cost" }) do
        if o[k] then mods[k] = (mods[k] or 0) + 1 end
      end
      local sources = {}
      for i = 1, r(1, 3) do sources[i] = { r(1, world.w), r(1, world.h) } end
      if seed % 5 == 0 then sources[#sources + 1] = sources[1] end -- a duplicate
      local is_source = {}
      for _, s in ipairs(sources) do
        if passable(world, o, s[1], s[2]) then is_source[(s[2] - 1) * world.w + s[1]] = true end
      end
      local po = worlds.options(o, { heuristic = "zero" }) -- for find_path: max_cost prunes distances only
      for _, direction in ipairs({ "to_sources", "from_sources" }) do
        local opts = worlds.options(o, { max_cost = o.max_cost,
          direction = direction ~= "to_sources" and direction or nil })
        local field = g:distances(sources, opts)
        eq("astar.Field (" .. world.w .. "x" .. world.h .. ")", tostring(field))
        for y = 1, world.h do
          for x = 1, world.w do
            local label = ("seed %d (%s) %s (%d,%d)"):format(seed, world.rule, direction, x, y)
            local want = HUGE
            for _, s in ipairs(sources) do
              local p
              if direction == "to_sources" then p = g:find_path(x, y, s[1], s[2], po)
              else p = g:find_path(s[1], s[2], x, y, po) end
              if p and p.cost < want then want = p.cost end
            end
            if o.max_cost and want > o.max_cost then want = HUGE end
            eq(want, field:get(x, y), label)
            checked = checked + 1
            local id = (y - 1) * world.w + x
            if want == HUGE or is_source[id] then
              eq(nil, (field:next_step(x, y)), label)
              eq(is_source[id] and 0 or HUGE, field:get(x, y), label)
            end
            -- walk to a source; every step is a cheapest first (or last) step
            local cx, cy, sum, hops = x, y, 0, 0
            while true do
              local nx, ny = field:next_step(cx, cy)
              if not nx then break end
              local c
              if direction == "to_sources" then
                c = step_cost(world, o, cx, cy, nx, ny)
                yes(c, label)
                eq(field:get(cx, cy), c + field:get(nx, ny), label)
              else
                c = step_cost(world, o, nx, ny, cx, cy)
                yes(c, label)
                eq(field:get(cx, cy), field:get(nx, ny) + c, label)
              end
              cx, cy, sum, hops = nx, ny, sum + c, hops + 1
              yes(hops <= world.w * world.h, label .. ": next_step loops")
            end
            if want < HUGE then
              yes(is_source[(cy - 1) * world.w + cx], label .. ": did not end at a source")
              eq(want, sum, label)
              walked = walked + 1
            end
          end
        end
      end
    end
    yes(checked > 2000, "checked " .. checked)
    yes(walked > 1300, "walked " .. walked)
    for _, rule in ipairs(RULES) do yes(rules[rule], rule) end
    for _, k in ipairs({ "costs", "penalty", "penalty_scale", "forbid", "cost", "max_cost" }) do
      yes((mods[k] or 0) >= 5, k .. " in too few worlds")
    end
  end)

  it("blocked and forbidden sources are skipped; unreachable cells are math.huge without a next step #pure", function()
    local g = astar.grid_from_string([[
..#..
..#..
..#..
]])
    local f = g:distances({ { 1, 1 }, { 3, 2 } })
    assert.equal(0, f:get(1, 1))
    assert.equal(HUGE, f:get(3, 2))
    assert.is_nil(f:next_step(3, 2))
    assert.equal(HUGE, f:get(5, 3))
    assert.is_nil(f:next_step(5, 3))
    assert.same({ 1, 1 }, { f:next_step(2, 2) })
    local forbid = astar.field(g)
    forbid:set(1, 1, 1)
    f = g:distances({ { 1, 1 }, { 5, 1 } }, { forbid = forbid })
    assert.equal(HUGE, f:get(1, 1))
    assert.equal(HUGE, f:get(2, 1))
    assert.equal(0, f:get(5, 1))
    assert.equal(1 + D, f:get(4, 3))
  end)

  it("next_step raises once the grid changed (its routes may lead into new walls) #pure", function()
    local stale = "field is stale (the grid changed since it was computed); call field:update()"
    local g = astar.grid(5, 1)
    local f = g:distances({ { 1, 1 } })
    assert.same({ 4, 1 }, { f:next_step(5, 1) })
    g:set_blocked(3, 1, true)
    assert.equal(stale, error_of(f.next_step, f, 5, 1))
    assert.equal(stale, error_of(f.next_step, f, 2, 1))
    assert.equal(4, f:get(5, 1)) -- the values stay what they were
    g:set_blocked(3, 1, false)  -- back as it was, but changed meanwhile: still stale
    assert.equal(stale, error_of(f.next_step, f, 5, 1))
    f = g:distances({ { 1, 1 } })
    assert.same({ 4, 1 }, { f:next_step(5, 1) })
    g:set_cost(5, 1, 1)          -- no change: the field stays good
    assert.same({ 4, 1 }, { f:next_step(5, 1) })
    g:close()                    -- a closed grid changes no more
    assert.same({ 4, 1 }, { f:next_step(5, 1) })
  end)

  it("next_step on an ordinary field raises; bad coordinates raise #pure", function()
    local g = astar.grid(5, 3)
    local msg = "next_step needs a field made by grid:distances"
    assert.equal(msg, error_of(function() return astar.field(g):next_step(1, 1) end))
    assert.equal(msg, error_of(function() return g:visible_from(1, 1):next_step(2, 2) end))
    local f = g:distances({ { 1, 1 } })
    assert.equal("bad argument #1 to 'next_step' (x must be an integer in 1..5, got 6)",
      error_of(function() return f:next_step(6, 1) end))
    assert.equal("bad argument #2 to 'next_step' (y must be an integer in 1..3, got 0)",
      error_of(function() return f:next_step(1, 0) end))
    assert.same({ 1, 1 }, { f:next_step(2, 2) })
  end)

  local bad = {
    { {}, nil, "bad argument #1 to 'distances' (sources must be a non-empty list)" },
    { 5, nil, "bad argument #1 to 'distances' (table (a list of sources) expected, got number)" },
    { { 3 }, nil, "bad argument #1 to 'distances' (sources[1] must be a cell {x, y} inside the 5x3 grid, got 3)" },
    { { { 1, 1 }, { 6, 1 } }, nil,
      "bad argument #1 to 'distances' (sources[2] must be a cell {x, y} inside the 5x3 grid, got table)" },
    { { { 1 } }, nil, "bad argument #1 to 'distances' (sources[1] must be a cell {x, y} inside the 5x3 grid, got table)" },
    { { { 1.5, 1 } }, nil,
      "bad argument #1 to 'distances' (sources[1] must be a cell {x, y} inside the 5x3 grid, got table)" },
    { { { "1", 1 } }, nil,
      "bad argument #1 to 'distances' (sources[1] must be a cell {x, y} inside the 5x3 grid, got table)" },
    { { { 1, 0 } }, nil, "bad argument #1 to 'distances' (sources[1] must be a cell {x, y} inside the 5x3 grid, got table)" },
    { { { 1, 1 } }, { heuristic = "octile" }, "bad argument #2 to 'distances' (option \"heuristic\" does not apply to distances)" },
    { { { 1, 1 } }, { partial = true }, "bad argument #2 to 'distances' (option \"partial\" does not apply to distances)" },
    { { { 1, 1 } }, { stop = "expand" }, "bad argument #2 to 'distances' (option \"stop\" does not apply to distances)" },
    { { { 1, 1 } }, { huristic = "octile" }, "bad argument #2 to 'distances' (unknown option \"huristic\")" },
    { { { 1, 1 } }, { penalty = 2 }, "bad argument #2 to 'distances' (penalty must be an astar.Field, got 2)" },
    { { { 1, 1 } }, { forbid = true }, "bad argument #2 to 'distances' (forbid must be an astar.Field, got true)" },
    { { { 1, 1 } }, { penalty_scale = 0 / 0 }, "bad argument #2 to 'distances' (penalty_scale must be a finite number, got nan)" },
    { { { 1, 1 } }, { direction = "back" },
      "bad argument #2 to 'distances' (direction must be \"from_sources\" or \"to_sources\", got \"back\")" },
  }
  for i, c in ipairs(bad) do
    it("refuses bad sources and options with exact messages ( #pure" .. i .. ")", function()
      local g = astar.grid(5, 3)
      assert.equal(c[3], error_of(g.distances, g, c[1], c[2]))
      assert.equal(4, g:distances({ { 5, 3 } }):get(1, 3))
      g:set_blocked(3, 3, true) -- unlocked
    end)
  end

  it("refuses fields of another size and penalties that make a step negative #pure", function()
    local g = astar.grid(5, 3)
    assert.equal("bad argument #2 to 'distances' (penalty field is 3x3 but the grid is 5x3)",
      error_of(g.distances, g, { { 1, 1 } }, { penalty = astar.field(astar.grid(3, 3)) }))
    local pen = astar.field(g)
    pen:set(3, 2, -5)
    assert.equal("entering cell (3, 2) would cost -4 (penalty * penalty_scale must keep step costs finite and >= 0)",
      error_of(g.distances, g, { { 1, 1 } }, { penalty = pen }))
    local obj = {}
    local ok, err = pcall(g.distances, g, { { 1, 1 } }, { cost = function() error(obj) end })
    assert.is_false(ok)
    assert.equal(obj, err)
    assert.equal("cannot call 'set_cost': grid is being searched",
      error_of(g.distances, g, { { 1, 1 } }, { cost = function() g:set_cost(1, 1, 3) end }))
    assert.equal(1, g:get_cost(1, 1))
    assert.equal(2 + 2 * D, g:distances({ { 1, 1 } }):get(5, 3))
    g:set_blocked(2, 2, true)
  end)
end)
