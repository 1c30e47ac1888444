-- bench/repair.lua -- a query repaired after an edit against the same query
-- begun again (on_change = "repair" against "restart"), on a Moving AI map.
--
--   lua5.4 bench/repair.lua [file.map] [pairs]
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
print(("%-5s %-4s %5s %12s %12s %8s %10s %10s %10s"):format("edit", "size", "done", "repair ms", "restart ms", "ratio",
  "exp repair", "exp restart", "relabel ms"))
for _, size in ipairs({ 1, 2 }) do
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
