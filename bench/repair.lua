-- bench/repair.lua -- a query repaired after an edit against the same query
-- begun again (on_change = "repair" against "restart"), on a Moving AI map.
--
--   lua5.4 bench/repair.lua [file.map] [pairs] [parts]
--
-- parts: a comma list of grid, graph, field, jps (default all four).
--
-- For seeded start/goal pairs between open cells of one component, each
-- query (A*, units of size 1 and 2) is stepped through half (then 90 %) of
-- the expansions find_path needs, the map is edited, and the step that
-- finishes it is timed (CPU, os.clock).  Edits:
--   far    a cell blocked 64+ cells from the path's bounding box
--   near   the path's middle cell blocked
--   dear   the path's middle 9 cells made dearer (cost 4; costs do not cut
--          the map, so no component relabel is paid by either mode)
-- The two modes alternate per pair (repair first on even pairs); every
-- finished query is checked against find_path on the edited map.  Prints,
-- per edit and size, the median finishing time of each mode and the median
-- of the per-pair ratios restart / repair, the expansions of the finishing
-- step of each, and the components' relabel a blocking edit costs (paid
-- before the timed step by grid:connected, the same for both modes: issue
-- 17's item 1 makes it local).
local astar = require("astar")

local map_path = arg[1] or "../shared/maps/Boston_0_512.map"
local PAIRS = math.tointeger(tonumber(arg[2] or "40"))
local PARTS = {}
for part in (arg[3] or "grid,graph,field,jps"):gmatch("[^,]+") do PARTS[part] = true end

local grid = astar.maps.load(map_path)
local w, h = grid:size()
local seed = 4242
local function rand(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n + 1
end

local function median(t)
  local s = {}
  for i = 1, #t do s[i] = t[i] end
  table.sort(s)
  if #s == 0 then return 0 / 0 end
  return #s % 2 == 1 and s[(#s + 1) / 2] or (s[#s / 2] + s[#s / 2 + 1]) / 2
end

-- a far open cell: 64+ cells from the box of the path
local function far_cell(p)
  local x0, y0, x1, y1 = math.huge, math.huge, -math.huge, -math.huge
  for _, c in ipairs(p.xy) do
    x0, y0 = math.min(x0, c[1]), math.min(y0, c[2])
    x1, y1 = math.max(x1, c[1]), math.max(y1, c[2])
  end
  for _ = 1, 10000 do
    local x, y = rand(w), rand(h)
    if not grid:is_blocked(x, y) and (x < x0 - 64 or x > x1 + 64 or y < y0 - 64 or y > y1 + 64) then
      return x, y
    end
  end
end

local EDITS = {
  far = function(p)
    local x, y = far_cell(p)
    if not x then return nil end
    grid:set_blocked(x, y, true)
    return function() grid:set_blocked(x, y, false) end
  end,
  near = function(p)
    local c = p.xy[math.floor((#p.xy + 1) / 2)]
    grid:set_blocked(c[1], c[2], true)
    return function() grid:set_blocked(c[1], c[2], false) end
  end,
  dear = function(p)
    local mid, cells = math.floor((#p.xy + 1) / 2), {}
    for i = math.max(1, mid - 4), math.min(#p.xy, mid + 4) do
      local c = p.xy[i]
      cells[#cells + 1] = c
      grid:set_cost(c[1], c[2], 4)
    end
    return function() for _, c in ipairs(cells) do grid:set_cost(c[1], c[2], 1) end end
  end,
}

-- one finished query under `mode` after `edit`: seconds, expansions, cost
local function run(pair, o, fresh, mode, edit, done)
  local opts = { algorithm = "astar", size = o.size, on_change = mode }
  local q = grid:query(pair[1], pair[2], pair[3], pair[4], opts)
  q:step(math.max(1, math.floor(fresh.expanded * done)))
  local before = select(3, q:result()).expanded
  local undo = edit(fresh)
  if not undo then return nil end
  -- the components' relabel after a blocking edit is paid here, outside the
  -- timing, by either mode alike (it is the components' cost: issue 17's
  -- item 1); timed apart
  local t0 = os.clock()
  grid:connected(pair[1], pair[2], pair[3], pair[4])
  local relabel = os.clock() - t0
  t0 = os.clock()
  local status = q:step()
  local t = os.clock() - t0
  local p, _, stats = q:result()
  local st = p or stats
  local want = grid:find_path(pair[1], pair[2], pair[3], pair[4], { algorithm = "astar", size = o.size })
  assert((p == nil) == (want == nil), "repair and find_path disagree")
  if p then assert(math.abs(p.cost - want.cost) <= 1e-9 * want.cost, "costs differ") end
  undo()
  -- expansions of the finishing step (a restart's statistics begin again)
  return t, mode == "repair" and st.expanded - before or st.expanded, relabel, status
end

print(("map %s (%dx%d), %d pairs"):format(map_path:match("[^/]+$"), w, h, PAIRS))
if PARTS.grid then
print(("%-5s %-4s %5s %12s %12s %8s %10s %10s %10s"):format("edit", "size", "done", "repair ms", "restart ms", "ratio",
  "exp repair", "exp restart", "relabel ms"))
end
for _, size in ipairs(PARTS.grid and { 1, 2 } or {}) do
  local o = { size = size }
  local pairs_ = {}
  while #pairs_ < PAIRS do
    local x1, y1, x2, y2 = rand(w), rand(h), rand(w), rand(h)
    if not grid:is_blocked(x1, y1) and grid:connected(x1, y1, x2, y2) then
      local p = grid:find_path(x1, y1, x2, y2, { algorithm = "astar", size = size })
      if p and p.expanded > 200 then pairs_[#pairs_ + 1] = { x1, y1, x2, y2, p } end
    end
  end
  for _, done in ipairs({ 0.5, 0.9 }) do
  for _, name in ipairs({ "far", "near", "dear" }) do
    local tr, tq, ratios, er, eq, rl = {}, {}, {}, {}, {}, {}
    for i, pair in ipairs(pairs_) do
      local fresh = pair[5]
      local a, b, ea, eb, ra
      if i % 2 == 0 then
        a, ea, ra = run(pair, o, fresh, "repair", EDITS[name], done)
        b, eb = run(pair, o, fresh, "restart", EDITS[name], done)
      else
        b, eb = run(pair, o, fresh, "restart", EDITS[name], done)
        a, ea, ra = run(pair, o, fresh, "repair", EDITS[name], done)
      end
      if a and b then
        tr[#tr + 1], tq[#tq + 1] = a, b
        er[#er + 1], eq[#eq + 1], rl[#rl + 1] = ea, eb, ra
        ratios[#ratios + 1] = b / math.max(a, 1e-7)
      end
    end
    print(("%-5s %-4d %4.0f%% %12.3f %12.3f %8.2f %10.0f %10.0f %10.3f"):format(name, size, done * 100,
      median(tr) * 1e3, median(tq) * 1e3, median(ratios), median(er), median(eq), median(rl) * 1e3))
  end
  end
end

-- ---------------------------------------------------------------------------
-- graph: the map's open cells as a graph (8 neighbours, no corner cutting,
-- costs 1 and sqrt 2: the euclidean estimate is admissible), the same
-- queries with the default heuristic.  Edits: far (a node 64+ cells from the
-- path disabled), near (the path's middle node disabled), dear (the path's
-- middle 8 edges made 4 times dearer).
-- ---------------------------------------------------------------------------
if PARTS.graph then
  local gr = astar.graph()
  local node = {}
  for y = 1, h do
    for x = 1, w do
      if not grid:is_blocked(x, y) then node[(y - 1) * w + x] = gr:add_node(x, y) end
    end
  end
  local function at(x, y) return x >= 1 and x <= w and y >= 1 and y <= h and node[(y - 1) * w + x] or nil end
  local R2 = math.sqrt(2)
  for y = 1, h do
    for x = 1, w do
      local a = at(x, y)
      if a then
        if at(x + 1, y) then gr:connect(a, at(x + 1, y), 1) end
        if at(x, y + 1) then gr:connect(a, at(x, y + 1), 1) end
        if at(x + 1, y + 1) and at(x + 1, y) and at(x, y + 1) then gr:connect(a, at(x + 1, y + 1), R2) end
        if at(x - 1, y + 1) and at(x - 1, y) and at(x, y + 1) then gr:connect(a, at(x - 1, y + 1), R2) end
      end
    end
  end
  local pos = {}
  local function far_node(p)
    local x0, y0, x1, y1 = math.huge, math.huge, -math.huge, -math.huge
    for _, v in ipairs(p.nodes) do
      pos[1], pos[2] = gr:position(v)
      x0, y0 = math.min(x0, pos[1]), math.min(y0, pos[2])
      x1, y1 = math.max(x1, pos[1]), math.max(y1, pos[2])
    end
    for _ = 1, 10000 do
      local x, y = rand(w), rand(h)
      if at(x, y) and (x < x0 - 64 or x > x1 + 64 or y < y0 - 64 or y > y1 + 64) then return at(x, y) end
    end
  end
  local GEDITS = {
    far = function(p)
      local v = far_node(p)
      if not v then return nil end
      gr:set_enabled(v, false)
      return function() gr:set_enabled(v, true) end
    end,
    near = function(p)
      local v = p.nodes[math.floor((#p.nodes + 1) / 2)]
      gr:set_enabled(v, false)
      return function() gr:set_enabled(v, true) end
    end,
    dear = function(p)
      local mid, old = math.floor((#p.edges + 1) / 2), {}
      for i = math.max(1, mid - 3), math.min(#p.edges, mid + 4) do
        local e = p.edges[i]
        old[e] = select(3, gr:edge(e))
        gr:set_cost(e, old[e] * 4)
      end
      return function() for e, c in pairs(old) do gr:set_cost(e, c) end end
    end,
  }
  local function grun(pair, fresh, mode, edit, done)
    local q = gr:query(pair[1], pair[2], { on_change = mode })
    q:step(math.max(1, math.floor(fresh.expanded * done)))
    local before = select(3, q:result()).expanded
    local undo = edit(fresh)
    if not undo then return nil end
    gr:connected(pair[1], pair[2]) -- the components, apart (as on grids)
    local t0 = os.clock()
    q:step()
    local t = os.clock() - t0
    local p, _, stats = q:result()
    local st = p or stats
    local want = gr:find_path(pair[1], pair[2])
    assert((p == nil) == (want == nil), "repair and find_path disagree")
    if p then assert(math.abs(p.cost - want.cost) <= 1e-9 * want.cost, "costs differ") end
    undo()
    return t, mode == "repair" and st.expanded - before or st.expanded
  end
  local gpairs = {}
  while #gpairs < PAIRS do
    local a, b = at(rand(w), rand(h)), at(rand(w), rand(h))
    if a and b and gr:connected(a, b) then
      local p = gr:find_path(a, b)
      if p and p.expanded > 200 then gpairs[#gpairs + 1] = { a, b, p } end
    end
  end
  print(("graph of the open cells: %d nodes, %d edges"):format(gr:node_count(), gr:edge_count()))
  print(("%-5s %5s %12s %12s %8s %10s %10s"):format("edit", "done", "repair ms", "restart ms", "ratio",
    "exp repair", "exp restart"))
  for _, done in ipairs({ 0.5, 0.9 }) do
    for _, name in ipairs({ "far", "near", "dear" }) do
      local tr, tq, ratios, er, eq = {}, {}, {}, {}, {}
      for i, pair in ipairs(gpairs) do
        local a, b, ea, eb
        if i % 2 == 0 then
          a, ea = grun(pair, pair[3], "repair", GEDITS[name], done)
          b, eb = grun(pair, pair[3], "restart", GEDITS[name], done)
        else
          b, eb = grun(pair, pair[3], "restart", GEDITS[name], done)
          a, ea = grun(pair, pair[3], "repair", GEDITS[name], done)
        end
        if a and b then
          tr[#tr + 1], tq[#tq + 1], er[#er + 1], eq[#eq + 1] = a, b, ea, eb
          ratios[#ratios + 1] = b / math.max(a, 1e-7)
        end
      end
      print(("%-5s %4.0f%% %12.3f %12.3f %8.2f %10.0f %10.0f"):format(name, done * 100, median(tr) * 1e3,
        median(tq) * 1e3, median(ratios), median(er), median(eq)))
    end
  end
end

-- ---------------------------------------------------------------------------
-- field: a distance field with a penalty field; the penalty changes (one
-- cell, or a disc of radius 3, near the sources or anywhere) and
-- field:update() repairs, against a fresh grid:distances with the same
-- options (what update() computed after a penalty change before it
-- repaired).  Alternating, CPU time; "rebuilt" counts the updates that
-- computed the field afresh (most of it hung on the change).
-- ---------------------------------------------------------------------------
if PARTS.field then
  local pen = astar.field(grid, 0)
  local FEDITS = {
    cell = function(x, y) pen:set(x, y, 3) end,
    disc = function(x, y) pen:add_disc(x, y, 3, 2) end,
  }
  print("distance field with a penalty field: update() against a fresh distances()")
  print(("%-5s %-9s %12s %12s %8s %8s"):format("edit", "where", "update ms", "fresh ms", "ratio", "rebuilt"))
  for _, name in ipairs({ "cell", "disc" }) do
    for _, where in ipairs({ "anywhere", "sources" }) do
      local tr, tq, ratios, rebuilt = {}, {}, {}, 0
      for i = 1, PAIRS do
        local sx, sy
        repeat sx, sy = rand(w), rand(h) until not grid:is_blocked(sx, sy)
        local sources = { { sx, sy } }
        local opts = { penalty = pen }
        local f = grid:distances(sources, opts)
        local x, y
        if where == "sources" then
          x, y = math.max(1, math.min(w, sx + rand(9) - 5)), math.max(1, math.min(h, sy + rand(9) - 5))
        else
          x, y = rand(w), rand(h)
        end
        FEDITS[name](x, y)
        local a, b, fresh, how
        local function rep()
          local t0 = os.clock()
          how = f:update()
          a = os.clock() - t0
        end
        local function new()
          local t0 = os.clock()
          fresh = grid:distances(sources, opts)
          b = os.clock() - t0
        end
        if i % 2 == 0 then rep() new() else new() rep() end
        assert(how == "repaired" or how == "rebuilt", how)
        if how == "rebuilt" then rebuilt = rebuilt + 1 end
        local cx, cy = rand(w), rand(h)
        assert(f:get(cx, cy) == fresh:get(cx, cy), "field differs")
        tr[#tr + 1], tq[#tq + 1], ratios[#ratios + 1] = a, b, b / math.max(a, 1e-7)
        pen:fill(0)
      end
      print(("%-5s %-9s %12.3f %12.3f %8.2f %8d"):format(name, where, median(tr) * 1e3, median(tq) * 1e3,
        median(ratios), rebuilt))
    end
  end
end

-- ---------------------------------------------------------------------------
-- jps: what a jump point query (algorithm = "auto") pays after a change --
-- it begins again as jump points (the first change; as A* the second) --
-- against the A* query that repairs, each stepped through the same share
-- of its own expansions first.  The finishing step, CPU time, alternating.
-- ---------------------------------------------------------------------------
if PARTS.jps then
  print("jump points begun again (auto) against A* repaired, the finishing step")
  print(("%-5s %-4s %5s %12s %12s %8s %10s %10s"):format("edit", "size", "done", "jps ms", "A* rep ms", "ratio",
    "exp jps", "exp A*"))
  local function jrun(pair, size, algorithm, fresh, edit, done)
    local q = grid:query(pair[1], pair[2], pair[3], pair[4], { algorithm = algorithm, size = size })
    q:step(math.max(1, math.floor(fresh.expanded * done)))
    local before = select(3, q:result()).expanded
    local undo = edit(pair[5])
    if not undo then return nil end
    grid:connected(pair[1], pair[2], pair[3], pair[4])
    local t0 = os.clock()
    q:step()
    local t = os.clock() - t0
    local p, _, stats = q:result()
    local st = p or stats
    local want = grid:find_path(pair[1], pair[2], pair[3], pair[4], { algorithm = "astar", size = size })
    assert((p == nil) == (want == nil), "query and find_path disagree")
    if p then assert(math.abs(p.cost - want.cost) <= 1e-9 * want.cost, "costs differ") end
    undo()
    return t, (st.restarts or 0) > 0 and st.expanded or st.expanded - before
  end
  for _, size in ipairs({ 1, 2 }) do
    local jpairs = {}
    while #jpairs < PAIRS do
      local x1, y1, x2, y2 = rand(w), rand(h), rand(w), rand(h)
      if not grid:is_blocked(x1, y1) and grid:connected(x1, y1, x2, y2) then
        local a = grid:find_path(x1, y1, x2, y2, { algorithm = "astar", size = size })
        local j = grid:find_path(x1, y1, x2, y2, { size = size })
        if a and a.expanded > 200 then jpairs[#jpairs + 1] = { x1, y1, x2, y2, a, j } end
      end
    end
    for _, done in ipairs({ 0.5, 0.9 }) do
      for _, name in ipairs({ "far", "near" }) do
        local tj, ta, ratios, ej, ea = {}, {}, {}, {}, {}
        for i, pair in ipairs(jpairs) do
          local a, b, xa, xb
          if i % 2 == 0 then
            a, xa = jrun(pair, size, "auto", pair[6], EDITS[name], done)
            b, xb = jrun(pair, size, "astar", pair[5], EDITS[name], done)
          else
            b, xb = jrun(pair, size, "astar", pair[5], EDITS[name], done)
            a, xa = jrun(pair, size, "auto", pair[6], EDITS[name], done)
          end
          if a and b then
            tj[#tj + 1], ta[#ta + 1], ej[#ej + 1], ea[#ea + 1] = a, b, xa, xb
            ratios[#ratios + 1] = a / math.max(b, 1e-7)
          end
        end
        print(("%-5s %-4d %4.0f%% %12.3f %12.3f %8.2f %10.0f %10.0f"):format(name, size, done * 100,
          median(tj) * 1e3, median(ta) * 1e3, median(ratios), median(ej), median(ea)))
      end
    end
  end
end
