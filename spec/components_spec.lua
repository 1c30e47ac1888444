-- Connected components: grid:connected / graph:connected against a
-- brute-force flood after random edits, and the searches they cut short
-- (a goal in another component is "unreachable" with nothing expanded).

-- busted reads a spec's globals through its environment, a walk up the
-- context tree on every read: the hot ones as locals (spec/helpers.lua)
local assert, ipairs, select, table = assert, ipairs, select, table
local astar = require("astar")
local worlds = require("worlds")
local oracle = require("grid_oracle")
local error_of = require("helpers").error_of
local rng = require("helpers").rng

-- The cells reachable from (sx, sy) under the world's rule, by flood fill
-- over oracle.step (the plainest statement of the rules): set of ids.
local function flood(world, sx, sy)
  local seen = {}
  if not oracle.passable(world, {}, sx, sy) then return seen end
  local stack = { { sx, sy } }
  seen[(sy - 1) * world.w + sx] = true
  while #stack > 0 do
    local c = table.remove(stack)
    for dy = -1, 1 do
      for dx = -1, 1 do
        local x, y = c[1] + dx, c[2] + dy
        local id = (y - 1) * world.w + x
        if (dx ~= 0 or dy ~= 0) and not seen[id] and oracle.step(world, {}, c[1], c[2], x, y) then
          seen[id] = true
          stack[#stack + 1] = { x, y }
        end
      end
    end
  end
  return seen
end

-- Checks connected() for every pair (a, b) with a in a sample of cells.
local function check_grid(world, r, label)
  local w, h = world.w, world.h
  for _ = 1, 6 do
    local sx, sy = r(1, w), r(1, h)
    local reach = flood(world, sx, sy)
    for y = 1, h do
      for x = 1, w do
        local want = reach[(y - 1) * w + x] == true
        if world.g:connected(sx, sy, x, y) ~= want then
          error(("%s: connected(%d,%d, %d,%d) should be %s"):format(label, sx, sy, x, y, tostring(want)))
        end
      end
    end
  end
end

describe("components", function()
  it("grid:connected matches a flood fill after random edits, for every diagonal rule #pure", function()
    for seed = 1, 24 do
      local world = worlds.random_grid(seed, { width = { 3, 14 }, height = { 3, 12 }, density = 0.5 })
      local r = world.r
      check_grid(world, r, ("seed %d %s"):format(seed, world.rule))
      for edit = 1, 30 do
        -- a run of edits (closing and opening) between two questions
        for _ = 1, r(1, 4) do
          local x, y = r(1, world.w), r(1, world.h)
          local id = (y - 1) * world.w + x
          world.blocked[id] = not world.blocked[id]
          world.g:set_blocked(x, y, world.blocked[id])
          if r() < 0.2 then world.g:set_cost(x, y, r(1, 3)) end -- costs never cut
          world.cost[id] = world.g:get_cost(x, y)
        end
        check_grid(world, r, ("seed %d %s edit %d"):format(seed, world.rule, edit))
      end
    end
  end)

  it("hex:connected matches a flood over hex:neighbours after random edits (labels by sector)", function()
    for seed = 1, 6 do
      local r = rng(seed)
      local w, h = r(3, 10), r(3, 9)
      local hx = astar.hex(w, h, { layout = ({ "odd_r", "even_r", "odd_q", "even_q" })[seed % 4 + 1] })
      for _ = 1, 40 do
        for _ = 1, r(1, 4) do
          local x, y = r(1, w), r(1, h)
          hx:set_blocked(x, y, not hx:is_blocked(x, y))
        end
        local sx, sy = r(1, w), r(1, h)
        local seen = {}
        if not hx:is_blocked(sx, sy) then
          local stack = { { sx, sy } }
          seen[hx:id(sx, sy)] = true
          while #stack > 0 do
            local c = table.remove(stack)
            for _, n in ipairs(hx:neighbours(c[1], c[2])) do
              local id = hx:id(n[1], n[2])
              if not seen[id] and not hx:is_blocked(n[1], n[2]) then
                seen[id] = true
                stack[#stack + 1] = n
              end
            end
          end
        end
        for y = 1, h do
          for x = 1, w do
            assert.equal(seen[hx:id(x, y)] == true, hx:connected(sx, sy, x, y),
              ("seed %d: (%d,%d)-(%d,%d)"):format(seed, sx, sy, x, y))
          end
        end
      end
    end
  end)

  it("the diagonal rule decides whether a corner joins two cells #pure", function()
    local expect = { never = false, no_corner_cutting = false, one_obstacle = false, always = true }
    for rule, joined in pairs(expect) do
      local g = astar.grid_from_string("#.\n.#", nil, { diagonal = rule })
      assert.equal(joined, g:connected(2, 1, 1, 2), rule)
      g:set_blocked(1, 1, false) -- one side open: one_obstacle allows it, and the cell joins anyway
      assert.is_true(g:connected(2, 1, 1, 2), rule)
    end
  end)

  it("graph:connected gives weak components of directed graphs and follows every mutator", function()
    for seed = 1, 30 do
      local w = worlds.random_graph(seed, 14, 12, { disabled = 0.2 })
      local g, r = w.g, w.r
      for step = 1, 25 do
        -- the flood: undirected over enabled ends
        local adj = {}
        for i = 1, g:node_count() do adj[i] = {} end
        for e = 1, g:edge_count() do
          local a, b = g:edge(e)
          if g:is_enabled(a) and g:is_enabled(b) then
            adj[a][#adj[a] + 1] = b
            adj[b][#adj[b] + 1] = a
          end
        end
        local s = r(1, g:node_count())
        local seen = {}
        if g:is_enabled(s) then
          local stack = { s }
          seen[s] = true
          while #stack > 0 do
            local u = table.remove(stack)
            for _, v in ipairs(adj[u]) do
              if not seen[v] then seen[v] = true; stack[#stack + 1] = v end
            end
          end
        end
        for v = 1, g:node_count() do
          assert.equal(seen[v] == true, g:connected(s, v), ("seed %d step %d: %d-%d"):format(seed, step, s, v))
          -- false proves it: no path either way
          if not seen[v] then
            assert.equal("unreachable", select(2, g:find_path(s, v)))
            assert.equal("unreachable", select(2, g:find_path(v, s)))
          end
        end
        local k = r(1, 4)
        if k == 1 then g:add_edge(r(1, g:node_count()), r(1, g:node_count()), 1)
        elseif k == 2 then g:set_enabled(r(1, g:node_count()), r() < 0.5)
        elseif k == 3 then g:add_node(0, 0)
        else g:set_cost(r(1, g:edge_count()), r(1, 5)) end
      end
    end
  end)

  it("find_path, query and partial toward another component: unreachable, nothing expanded #pure", function()
    local g = astar.grid_from_string(table.concat({
      "....#....",
      "....#....",
      "....#....",
    }, "\n"))
    local p, why, stats = g:find_path(1, 1, 9, 3)
    assert.is_nil(p)
    assert.equal("unreachable", why)
    assert.equal(0, stats.expanded)
    local q = g:query(1, 1, 9, 3)
    assert.equal("unreachable", q:step(1))
    assert.equal(0, select(3, q:result()).expanded)
    -- partial: the best path within the start's component, reason unreachable
    p = g:find_path(1, 1, 9, 3, { partial = true })
    assert.is_true(p.partial)
    assert.equal("unreachable", p.reason)
    assert.same({ 4, 3 }, { g:xy(p.nodes[#p.nodes]) })
    p = g:find_path(1, 1, 9, 3, { partial = true, max_expansions = 2 })
    assert.equal("unreachable", p.reason) -- proven: the budget only bounded the path
    -- distances are unaffected: unreachable cells stay unreachable
    local f = g:distances({ { 1, 1 } })
    assert.equal(math.huge, f:get(9, 3))
    -- an opened gap merges the two at once
    g:set_blocked(5, 2, false)
    assert.is_true(g:connected(1, 1, 9, 3))
    assert.equal(9, #g:find_path(1, 1, 9, 3).nodes)
  end)

  it("per-query modifiers can still cut a component: the search ends by itself or by its budgets #pure", function()
    local g = astar.grid(9, 3)
    local wall = astar.field(g)
    for y = 1, 3 do wall:set(5, y, 1) end
    assert.is_true(g:connected(1, 1, 9, 3))
    local p, why, stats = g:find_path(1, 1, 9, 3, { forbid = wall })
    assert.is_nil(p)
    assert.equal("unreachable", why)
    assert.equal(12, stats.expanded) -- the search proves it by flooding its side
    assert.equal("max_expansions", select(2, g:find_path(1, 1, 9, 3, { forbid = wall, max_expansions = 3 })))
  end)

  it("bad arguments and closed topologies", function()
    local g = astar.grid(4, 3)
    assert.equal("bad argument #1 to 'connected' (x must be an integer in 1..4, got 0)",
      error_of(g.connected, g, 0, 1, 1, 1))
    assert.equal("bad argument #4 to 'connected' (y must be an integer in 1..3, got 9)",
      error_of(g.connected, g, 1, 1, 1, 9))
    assert.equal("bad argument #2 to 'connected' (number expected, got no value)",
      error_of(g.connected, g, 1))
    local gr = astar.graph()
    gr:add_node(0, 0)
    assert.equal("bad argument #2 to 'connected' (node 2 does not exist (the graph has 1 node))",
      error_of(gr.connected, gr, 1, 2))
    assert.is_true(gr:connected(1, 1))
    gr:set_enabled(1, false)
    assert.is_false(gr:connected(1, 1)) -- a disabled node reaches nothing
    g:close()
    gr:close()
    assert.equal("attempt to use a closed grid", error_of(g.connected, g, 1, 1, 2, 2))
    assert.equal("attempt to use a closed graph", error_of(gr.connected, gr, 1, 1))
  end)

  it("edits from inside a search's callbacks are refused; connected() may be asked #pure", function()
    local g = astar.grid(6, 6)
    local asked, refused
    g:find_path(1, 1, 6, 6, { cost = function(_, _, c)
      if asked == nil then
        asked = g:connected(1, 1, 6, 6)
        refused = error_of(g.set_blocked, g, 3, 3, true)
      end
      return c
    end })
    assert.is_true(asked)
    assert.equal("cannot call 'set_blocked': grid is being searched", refused)
  end)

  it("a big map: many queries on an island cost no expansions #pure", function()
    local r = rng(7)
    local g = astar.grid(200, 200)
    for y = 1, 200 do g:set_blocked(150, y, true) end
    for _ = 1, 50 do
      local _, why, stats = g:find_path(r(1, 149), r(1, 200), r(151, 200), r(1, 200))
      assert.equal("unreachable", why)
      assert.equal(0, stats.expanded)
    end
  end)
end)
