-- Connectivity kept per sector (src/sectors.c) and would_disconnect: both
-- against flood fills written here, over random edit sequences on grids
-- large enough to hold many sectors (a grid of longer side s has sectors
-- of about sqrt(s) cells: 8 for 17 to 64, so 20 to 64 cells make 3 x 3 to
-- 8 x 8 sectors, and
-- every edit near a sector's border crosses one), for every diagonal rule,
-- hex layouts and graphs.

-- busted reads a spec's globals through its environment, a walk up the
-- context tree on every read: the hot ones as locals (spec/helpers.lua)
local assert, ipairs, math, table = assert, ipairs, math, table
local astar = require("astar")
local rng = require("helpers").rng

local RULES = { "never", "no_corner_cutting", "one_obstacle", "always" }

-- The steps of a square grid under its rule, written out plainly: the
-- neighbours of (x, y) one step away, the blocked set `b` (id -> true),
-- with `extra` (an id) counted as blocked too.  steps(x, y, visit) calls
-- visit(nx, ny) for each (no list built: the floods call it on every cell);
-- the open cells are read from `b` when the steps are made.
local function square_steps(w, h, rule, b, extra)
  local free = {}
  for id = 1, w * h do free[id] = not b[id] and id ~= extra end
  local function open(x, y)
    if x < 1 or y < 1 or x > w or y > h then return false end
    return free[(y - 1) * w + x]
  end
  return function(x, y, visit)
    if not open(x, y) then return end
    for dy = -1, 1 do
      for dx = -1, 1 do
        if (dx ~= 0 or dy ~= 0) and open(x + dx, y + dy) then
          local ok = true
          if dx ~= 0 and dy ~= 0 then
            local s1, s2 = open(x + dx, y), open(x, y + dy)
            if rule == "never" then ok = false
            elseif rule == "no_corner_cutting" then ok = s1 and s2
            elseif rule == "one_obstacle" then ok = s1 or s2 end
          end
          if ok then visit(x + dx, y + dy) end
        end
      end
    end
  end, open
end

-- Hex steps: the grid's own neighbours (hex:neighbours, checked by the hex
-- specs against the layouts; blocked or not, so read once a grid), open
-- ones only; steps(x, y, visit) as above.
local hex_lists = setmetatable({}, { __mode = "k" })
local function hex_steps(g, w, b, extra)
  local lists = hex_lists[g]
  if not lists then
    lists = {}
    local _, h = g:size()
    for id = 1, w * h do
      lists[id] = g:neighbours((id - 1) % w + 1, math.floor((id - 1) / w) + 1)
    end
    hex_lists[g] = lists
  end
  local function open(x, y)
    local id = (y - 1) * w + x
    return not b[id] and id ~= extra
  end
  return function(x, y, visit)
    if not open(x, y) then return end
    for _, n in ipairs(lists[(y - 1) * w + x]) do
      if open(n[1], n[2]) then visit(n[1], n[2]) end
    end
  end, open
end

-- Component labels by flood fill: comp[id] (nil on blocked cells), and one
-- representative cell per label.
local function flood_labels(w, h, steps, open)
  local comp, reps, k = {}, {}, 0
  local xs, ys, top = {}, {}, 0 -- the stack
  local function visit(nx, ny)
    local nid = (ny - 1) * w + nx
    if not comp[nid] then
      comp[nid] = k
      top = top + 1
      xs[top], ys[top] = nx, ny
    end
  end
  for y = 1, h do
    for x = 1, w do
      local id = (y - 1) * w + x
      if open(x, y) and not comp[id] then
        k = k + 1
        reps[k] = { x, y }
        comp[id] = k
        top = 1
        xs[1], ys[1] = x, y
        while top > 0 do
          local cx, cy = xs[top], ys[top]
          top = top - 1
          steps(cx, cy, visit)
        end
      end
    end
  end
  return comp, reps
end

-- connected() agrees with the labels on every cell (against its
-- component's representative) and between representatives.
local function check_connected(g, w, h, comp, reps, label)
  for y = 1, h do
    for x = 1, w do
      local k = comp[(y - 1) * w + x]
      local r = reps[k or 1]
      local want = k ~= nil
      if r and g:connected(r[1], r[2], x, y) ~= want then
        error(("%s: connected(%d,%d, %d,%d) should be %s"):format(label, r[1], r[2], x, y,
          tostring(want)))
      end
    end
  end
  for i = 1, #reps do
    for j = i + 1, math.min(#reps, i + 6) do
      local a, b = reps[i], reps[j]
      if g:connected(a[1], a[2], b[1], b[2]) then
        error(("%s: components %d and %d joined"):format(label, i, j))
      end
    end
  end
end

-- One random edit: a cell flipped, or a wall (a row or column run)
-- closed or opened; b mirrors the grid.
local function random_edit(g, w, h, b, r)
  local k = r(1, 10)
  if k <= 7 then
    local x, y = r(1, w), r(1, h)
    local id = (y - 1) * w + x
    b[id] = not b[id] or nil
    g:set_blocked(x, y, b[id] == true)
  else
    local horizontal, close = r() < 0.5, r() < 0.7
    local x, y, len = r(1, w), r(1, h), r(3, 20)
    for i = 0, len - 1 do
      local cx, cy = horizontal and x + i or x, horizontal and y or y + i
      if cx <= w and cy <= h then
        b[(cy - 1) * w + cx] = close or nil
        g:set_blocked(cx, cy, close)
      end
    end
  end
end

-- would_disconnect(x, y, points) against two floods (with and without the
-- cell): true exactly when two points connected now are apart after.
local function check_would(g, w, h, b, r, make_steps, label)
  local before = {}
  for i = 1, w * h do before[i] = b[i] end
  local comp = flood_labels(w, h, make_steps(nil))
  for _ = 1, 6 do
    local x, y = r(1, w), r(1, h)
    local cid = (y - 1) * w + x
    local pts = {}
    for i = 1, r(0, 6) do pts[i] = { r(1, w), r(1, h) } end
    if r() < 0.3 and #pts > 0 then pts[#pts + 1] = { x, y } end
    local want = false
    if not b[cid] then
      local after = flood_labels(w, h, make_steps(cid))
      for i = 1, #pts do
        for j = i + 1, #pts do
          local a = (pts[i][2] - 1) * w + pts[i][1]
          local c = (pts[j][2] - 1) * w + pts[j][1]
          if a ~= c and comp[a] and comp[a] == comp[c] and (after[a] == nil or after[a] ~= after[c]) then
            want = true
          end
        end
      end
    end
    local got = g:would_disconnect(x, y, pts)
    if got ~= want then
      local s = {}
      for i, p in ipairs(pts) do s[i] = ("{%d,%d}"):format(p[1], p[2]) end
      error(("%s: would_disconnect(%d, %d, {%s}) should be %s"):format(label, x, y,
        table.concat(s, ","), tostring(want)))
    end
  end
  for i = 1, w * h do -- nothing changed
    local x, y = (i - 1) % w + 1, math.floor((i - 1) / w) + 1
    assert(g:is_blocked(x, y) == (before[i] == true), label .. ": the grid changed")
  end
end

-- A graph's weak components by flood fill over its enabled nodes, with
-- node `skip` (or nil) counted as disabled: comp[node] (nil when
-- disabled), and one representative node per label.
local function graph_labels(g, skip)
  local n = g:node_count()
  local adj = {}
  for i = 1, n do adj[i] = {} end
  for e = 1, g:edge_count() do
    local a, c = g:edge(e)
    adj[a][#adj[a] + 1] = c
    adj[c][#adj[c] + 1] = a
  end
  local comp, reps = {}, {}
  for s = 1, n do
    if g:is_enabled(s) and s ~= skip and not comp[s] then
      reps[#reps + 1] = s
      comp[s] = #reps
      local stack = { s }
      while #stack > 0 do
        local u = table.remove(stack)
        for _, v in ipairs(adj[u]) do
          if g:is_enabled(v) and v ~= skip and not comp[v] then
            comp[v] = #reps
            stack[#stack + 1] = v
          end
        end
      end
    end
  end
  return comp, reps
end

-- connected() on a grid (square under `rule`, or hex) against the flood
-- of its blocked set b.
local function check_flood(g, w, h, b, hexed, rule, label)
  local steps, open
  if hexed then steps, open = hex_steps(g, w, b) else steps, open = square_steps(w, h, rule, b) end
  local comp, reps = flood_labels(w, h, steps, open)
  check_connected(g, w, h, comp, reps, label)
end

describe("connectivity by sectors", function()
  -- The random oracles below run their first seeds in make test and the
  -- rest tagged #system (make test-system, run by .ci/run): the same body,
  -- every seed run once in CI.
  local function tiers(name, split, last, body)
    it(name, function()
      for seed = 1, split do body(seed) end
    end)
    it(("%s, seeds %d-%d #system"):format(name, split + 1, last), function()
      for seed = split + 1, last do body(seed) end
    end)
  end

  tiers("grid:connected matches a flood fill over random edit sequences, every diagonal rule", 5, 16, function(seed)
    local r = rng(seed * 7919)
    local rule = RULES[seed % 4 + 1]
    local w, h = r(20, 64), r(20, 60)
    local g = astar.grid(w, h, { diagonal = rule })
    local b = {}
    local density = r() * 0.45
    for y = 1, h do
      for x = 1, w do
        if r() < density then
          b[(y - 1) * w + x] = true
          g:set_blocked(x, y, true)
        end
      end
    end
    for round = 1, 12 do
      local label = ("seed %d %s %dx%d round %d"):format(seed, rule, w, h, round)
      local steps, open = square_steps(w, h, rule, b)
      local comp, reps = flood_labels(w, h, steps, open)
      check_connected(g, w, h, comp, reps, label)
      if round % 3 == 0 then
        check_would(g, w, h, b, r, function(extra) return square_steps(w, h, rule, b, extra) end, label)
      end
      for _ = 1, r(1, 5) do random_edit(g, w, h, b, r) end
    end
  end)

  tiers("hex:connected and would_disconnect match a flood over hex:neighbours, every layout", 4, 8, function(seed)
    local layouts = { "odd_r", "even_r", "odd_q", "even_q" }
    local r = rng(seed * 104729)
    local w, h = r(20, 45), r(20, 40)
    local g = astar.hex(w, h, { layout = layouts[seed % 4 + 1] })
    local b = {}
    for round = 1, 10 do
      for _ = 1, r(3, 30) do random_edit(g, w, h, b, r) end
      local label = ("hex seed %d %s round %d"):format(seed, layouts[seed % 4 + 1], round)
      local steps, open = hex_steps(g, w, b)
      local comp, reps = flood_labels(w, h, steps, open)
      check_connected(g, w, h, comp, reps, label)
      check_would(g, w, h, b, r, function(extra) return hex_steps(g, w, b, extra) end, label)
    end
  end)

  it("walls across the whole map with one gap: closing the gap splits, opening joins (flood oracle)", function()
    -- the split of bench/edits.lua: every sector of a column relabelled,
    -- then one sector's component cut in two; sizes that are not
    -- multiples of the sector side (partial sectors on the far edges)
    for seed = 1, 12 do
      local r = rng(seed * 6151)
      local hexed = seed % 3 == 0
      local rule = RULES[seed % 4 + 1]
      local w, h = r(21, 70), r(21, 66)
      local g = hexed and astar.hex(w, h, { layout = ({ "odd_r", "even_q" })[seed % 2 + 1] })
        or astar.grid(w, h, { diagonal = rule })
      local b = {}
      for _ = 1, r(0, 40) do
        local x, y = r(1, w), r(1, h)
        b[(y - 1) * w + x] = true
        g:set_blocked(x, y, true)
      end
      local function check(label) check_flood(g, w, h, b, hexed, rule, label) end
      for round = 1, 4 do
        local vertical = r() < 0.5
        local at, gap = vertical and r(2, w - 1) or r(2, h - 1), r(1, vertical and h or w)
        local n = vertical and h or w
        local was = {}
        for i = 1, n do
          local x, y = vertical and at or i, vertical and i or at
          local id = (y - 1) * w + x
          was[i] = b[id]
          b[id] = i ~= gap or nil
          g:set_blocked(x, y, i ~= gap)
        end
        local label = ("seed %d %s %dx%d round %d"):format(seed, hexed and "hex" or rule, w, h, round)
        check(label .. " gap open")
        local gx, gy = vertical and at or gap, vertical and gap or at
        b[(gy - 1) * w + gx] = true
        g:set_blocked(gx, gy, true)
        check(label .. " gap closed")
        b[(gy - 1) * w + gx] = nil
        g:set_blocked(gx, gy, false)
        check(label .. " gap opened again")
        for i = 1, n do -- the wall taken down again, cell by cell
          local x, y = vertical and at or i, vertical and i or at
          b[(y - 1) * w + x] = was[i]
          g:set_blocked(x, y, was[i] == true)
        end
        check(label .. " wall gone")
      end
    end
  end)

  it("a new grid's first edit, anywhere (a sector one cell wide on the edge), against the flood", function()
    -- the first edit labels the grid as it was (all open) and then applies
    -- itself like any other edit; 33 columns under sectors of 8 leave a last
    -- column of sectors one cell wide, which one blocked cell splits; on
    -- grids one cell wide or high the first edit splits the map
    local cases = { { 33, 10 }, { 33, 1 }, { 1, 1 }, { 17, 10 }, { 32, 20 }, { 9, 9 },
      { 1, 10, 1, 20 }, { 9, 1, 20, 1 }, { 1, 8, 1, 9 } }
    for _, rule in ipairs(RULES) do
      for _, at in ipairs(cases) do
        for _, hexed in ipairs({ false, true }) do
          local w, h = at[3] or 33, at[4] or 20
          local g = hexed and astar.hex(w, h, { layout = rule == "never" and "odd_q" or "even_r" })
            or astar.grid(w, h, { diagonal = rule })
          local b = { [(at[2] - 1) * w + at[1]] = true }
          g:set_blocked(at[1], at[2], true)
          local steps, open
          if hexed then steps, open = hex_steps(g, w, b) else steps, open = square_steps(w, h, rule, b) end
          local comp, reps = flood_labels(w, h, steps, open)
          check_connected(g, w, h, comp, reps, ("%s %s first edit at %d,%d"):format(
            hexed and "hex" or "grid", rule, at[1], at[2]))
          -- a second edit beside it, and the column strip cut twice
          local nx, ny = math.min(w, at[1] + (h == 1 and 2 or 0)), math.min(h, at[2] + (h == 1 and 0 or 2))
          g:set_blocked(nx, ny, true)
          b[(ny - 1) * w + nx] = true
          if hexed then steps, open = hex_steps(g, w, b) else steps, open = square_steps(w, h, rule, b) end
          comp, reps = flood_labels(w, h, steps, open)
          check_connected(g, w, h, comp, reps, ("%s %s second edit"):format(hexed and "hex" or "grid", rule))
        end
      end
    end
  end)

  it("a one-cell corridor: each of its cells would split it, and closing one splits it", function()
    for _, rule in ipairs(RULES) do
      local w, h = 64, 9
      local g = astar.grid(w, h, { diagonal = rule })
      for x = 1, w do
        for y = 1, h do
          if y ~= 5 then g:set_blocked(x, y, true) end
        end
      end
      assert.is_true(g:connected(1, 5, w, 5))
      for x = 2, w - 1 do
        assert.is_true(g:would_disconnect(x, 5, { { 1, 5 }, { w, 5 } }), rule .. " " .. x)
        assert.is_false(g:would_disconnect(x, 5, { { 1, 5 }, { x - 1, 5 } }), rule .. " " .. x)
      end
      assert.is_true(g:would_disconnect(1, 5, { { 1, 5 }, { 2, 5 } })) -- the cell itself
      assert.is_false(g:would_disconnect(1, 4, { { 1, 5 }, { w, 5 } })) -- blocked already
      assert.is_false(g:would_disconnect(7, 5, { { 1, 5 } }))          -- one point
      assert.is_false(g:would_disconnect(7, 5, {}))
      g:set_blocked(33, 5, true)
      assert.is_false(g:connected(1, 5, w, 5))
      assert.is_true(g:connected(1, 5, 32, 5) and g:connected(34, 5, w, 5))
      g:set_blocked(33, 5, false)
      assert.is_true(g:connected(1, 5, w, 5))
    end
  end)

  it("would_disconnect leaves the map, its fields and its queries alone", function()
    local g = astar.grid(40, 40)
    for y = 1, 39 do g:set_blocked(20, y, true) end -- a wall with one gap at y = 40
    local f = g:distances({ { 1, 1 } })
    local q = g:query(1, 1, 40, 1, { on_change = "fail", algorithm = "astar" })
    assert.equal("searching", q:step(5))
    local mem = g:memory()
    assert.is_true(g:would_disconnect(20, 40, { { 1, 1 }, { 40, 1 } }))
    assert.is_false(g:would_disconnect(10, 10, { { 1, 1 }, { 40, 1 } }))
    assert.is_false(g:is_blocked(20, 40))
    assert.is_false(f:stale())
    assert.equal("found", q:step()) -- not "changed"
    assert.is_true(g:memory() >= mem)
  end)

  it("graph:would_disconnect matches a flood without the node over random graphs", function()
    for seed = 1, 30 do
      local r = rng(seed * 31)
      local g = astar.graph()
      local n = r(3, 25)
      for i = 1, n do g:add_node(i, 0) end
      for _ = 1, r(0, 2 * n) do g:add_edge(r(1, n), r(1, n), 1) end
      for _ = 1, r(0, 3) do g:set_enabled(r(1, n), false) end
      local now = graph_labels(g)
      for _ = 1, 10 do
        local v = r(1, n)
        local pts = {}
        for i = 1, r(0, 5) do pts[i] = r(1, n) end
        local after = graph_labels(g, v)
        local want = false
        if g:is_enabled(v) then
          for i = 1, #pts do
            for j = i + 1, #pts do
              local a, c = pts[i], pts[j]
              if a ~= c and now[a] and now[a] == now[c] and (after[a] == nil or after[a] ~= after[c]) then
                want = true
              end
            end
          end
        end
        assert.equal(want, g:would_disconnect(v, pts), ("seed %d node %d"):format(seed, v))
        assert.is_true(g:is_enabled(v) == (now[v] ~= nil))
      end
    end
  end)

  tiers("graph:connected stays exact over random disables, enables and additions", 4, 12, function(seed)
    local r = rng(seed * 977)
    local g = astar.graph()
    local n = r(30, 120)
    for i = 1, n do g:add_node(i, 0) end
    -- a random tree (splits are likely) with a few extra edges, some one way
    for i = 2, n do
      local j = r(1, i - 1)
      if r() < 0.8 then g:connect(i, j, 1) else g:add_edge(i, j, 1) end
    end
    for _ = 1, r(0, math.floor(n / 4)) do g:add_edge(r(1, n), r(1, n), 1) end
    for step = 1, 40 do
      local k = r(1, 10)
      if k <= 6 then g:set_enabled(r(1, g:node_count()), false)
      elseif k <= 8 then g:set_enabled(r(1, g:node_count()), true)
      elseif k == 9 then g:add_edge(r(1, g:node_count()), r(1, g:node_count()), 1)
      else g:add_node(0, 0) end
      local nn = g:node_count()
      local comp, reps = graph_labels(g)
      for v = 1, nn do
        local rep = reps[comp[v] or 1]
        if rep then
          assert.equal(comp[v] ~= nil, g:connected(rep, v), ("seed %d step %d: %d-%d"):format(seed, step, rep, v))
        end
      end
      for i = 1, #reps - 1 do
        assert.is_false(g:connected(reps[i], reps[i + 1]), ("seed %d step %d"):format(seed, step))
      end
    end
  end)

  tiers("rooms shut and opened at their doors, borders crossed again and again (flood oracle)", 5, 10, function(seed)
    -- sectors of 16 x 16 (grids of 65 to 256 cells a side): a door closed
    -- on a small room is found at the edit by a lockstep flood from both
    -- sides, a large split gives up and relabels; cells flipped on the
    -- sector borders many times make each border's pairs grow and shrink,
    -- so the dense pool of pairs moves sectors to its end and packs
    local r = rng(seed * 3331)
    local hexed = seed % 5 == 0
    local rule = RULES[seed % 4 + 1]
    local w, h = r(66, 110), r(66, 100)
    local g = hexed and astar.hex(w, h, { layout = "odd_r" }) or astar.grid(w, h, { diagonal = rule })
    local b = {}
    local function set(x, y, v)
      if x < 1 or y < 1 or x > w or y > h then return end
      b[(y - 1) * w + x] = v or nil
      g:set_blocked(x, y, v)
    end
    local rooms = {}
    for _ = 1, 12 do -- rooms of 1 x 1 to 6 x 6 inside walls, a door each
      local rw, rh = r(1, 6), r(1, 6)
      local x0, y0 = r(1, w - rw - 1), r(1, h - rh - 1)
      for x = x0, x0 + rw + 1 do set(x, y0, true); set(x, y0 + rh + 1, true) end
      for y = y0, y0 + rh + 1 do set(x0, y, true); set(x0 + rw + 1, y, true) end
      for y = y0 + 1, y0 + rh do for x = x0 + 1, x0 + rw do set(x, y, false) end end
      local door = { x0 + rw + 1, y0 + r(1, rh) }
      set(door[1], door[2], false)
      rooms[#rooms + 1] = door
    end
    local function check(label) check_flood(g, w, h, b, hexed, rule, label) end
    check(("seed %d rooms built"):format(seed))
    for round = 1, 8 do
      for _ = 1, r(1, 4) do -- doors shut or opened
        local d = rooms[r(1, #rooms)]
        set(d[1], d[2], not b[(d[2] - 1) * w + d[1]])
      end
      for _ = 1, r(10, 40) do -- cells next to the sector borders (16k, 16k + 1)
        local x, y = 16 * r(1, math.floor((w - 1) / 16)) + r(0, 1), r(1, h)
        if r() < 0.5 then x, y = r(1, w), 16 * r(1, math.floor((h - 1) / 16)) + r(0, 1) end
        if x <= w and y <= h then set(x, y, not b[(y - 1) * w + x]) end
      end
      if r() < 0.3 then random_edit(g, w, h, b, r) end
      check(("seed %d %s %dx%d round %d"):format(seed, hexed and "hex" or rule, w, h, round))
    end
  end)

  it("memory() counts the sectors once they are built", function()
    local g = astar.grid(256, 256)
    local fresh = g:memory()
    g:set_blocked(5, 5, true)
    assert.is_true(g:connected(1, 1, 256, 256))
    local built = g:memory()
    -- two bytes of labels per cell and the sector graph: more than the
    -- labels, less than the four bytes a cell the labels used to take
    assert.is_true(built - fresh > 2 * 256 * 256, built - fresh)
    assert.is_true(built - fresh < 4 * 256 * 256, built - fresh)
  end)
end)
