-- bench/edits.lua -- the "edits" rows of `make bench`: what an edit of a
-- map costs together with the next question about its components
-- (issue 17: "edits cost what they touch").
--
--   close + connected   one open cell anywhere blocked, then connected()
--                       between two random open cells
--   open + connected    the same cell opened again, then connected()
--   split + connected   a wall across the map with one gap is prepared
--                       (not timed); then the gap is closed, which splits
--                       the map in two, and connected() across it
--   split + unreachable the same, then find_path across it: "unreachable"
--                       from the components, nothing expanded
--   wall of 64 + conn.  64 cells in a row blocked, then connected()
--   would_disconnect    the "what if" question for a random open cell and
--                       two random cells (this build only)
-- on a 512 x 512 game map (AR0011SR, Baldur's Gate II), a 2048 x 2048
-- map made of 4 x 4 copies of the street map Boston_0_512, and one of 4 x 4
-- copies of maze512-1-0 (corridors one cell wide: every sector holds
-- dozens of components, so the sector graph is 15 times Boston's and every
-- closed corridor cell splits the map), all from ../shared/maps (absent:
-- the row says so).  CPU time (os.clock) per
-- operation, median and largest over the trials.
--
--   lua5.4 bench/edits.lua [base-cpath-dir] [trials]
--
-- With a base directory (holding astar/core.so, for instance a build of
-- v0.2.0 in /tmp/base/build), each map runs in its own processes, the base
-- and this build (build/) alternating three times, and the table shows
-- both medians and their ratio; every answer of connected() and find_path
-- must agree between the two.  Without one (as `make bench` runs it),
-- this build alone.
local LUA = os.getenv("LUA") or "lua5.4"
local MAPS = os.getenv("MAPS") or "../shared/maps"

local function median(t)
  local c = {}
  for i, v in ipairs(t) do c[i] = v end
  table.sort(c)
  local n = #c
  if n == 0 then return 0 / 0 end
  return n % 2 == 1 and c[(n + 1) / 2] or (c[n / 2] + c[n / 2 + 1]) / 2
end

local function exists(path)
  local f = io.open(path, "r")
  if f then f:close() end
  return f ~= nil
end

local MAP_ROWS = {
  { label = "512x512 AR0011SR", file = "AR0011SR.map", tile = 1, trials = 60 },
  { label = "2048x2048 Boston_0_512 x16", file = "Boston_0_512.map", tile = 4, trials = 25 },
  { label = "2048x2048 maze512-1-0 x16", file = "maze512-1-0.map", tile = 4, trials = 15 },
}

-- ---------------------------------------------------------------------------
-- the worker: one build, one map
-- ---------------------------------------------------------------------------

local function worker(path, tile, trials)
  local astar = require("astar")
  local text = assert(io.open(path, "rb")):read("*a")
  local rows = {}
  local started = false
  for line in text:gmatch("[^\r\n]+") do
    if started then rows[#rows + 1] = line
    elseif line == "map" then started = true end
  end
  local mw, mh = #rows[1], #rows
  local w, h = mw * tile, mh * tile
  local g = astar.grid(w, h, { diagonal = "no_corner_cutting" })
  for ty = 0, tile - 1 do
    for tx = 0, tile - 1 do
      for y = 1, mh do
        local row = rows[y]
        for x = 1, mw do
          local ch = row:sub(x, x)
          if ch ~= "." and ch ~= "G" and ch ~= "S" then
            local gx, gy = tx * mw + x, ty * mh + y
            g:set_blocked(gx, gy, true)
          end
        end
      end
    end
  end
  local seed = 4242
  local function r(n)
    seed = (seed * 1103515245 + 12345) % 2147483648
    return (seed // 65536) * n // 32768 + 1 -- the high bits: the low ones cycle
  end
  local function open_cell()
    local x, y
    repeat x, y = r(w), r(h) until not g:is_blocked(x, y)
    return x, y
  end
  local clock = os.clock
  local checks = {}
  local function note(v) checks[#checks + 1] = tostring(v) end
  g:connected(1, 1, 1, 1) -- the first question labels the loaded map (not timed)
  local t = { close = {}, open = {}, split = {}, unreach = {}, wall = {}, would = {} }
  for _ = 1, trials do
    local x, y = open_cell()
    local ax, ay = open_cell()
    local bx, by = open_cell()
    local t0 = clock()
    g:set_blocked(x, y, true)
    local c = g:connected(ax, ay, bx, by)
    local t1 = clock()
    g:set_blocked(x, y, false)
    local c2 = g:connected(ax, ay, bx, by)
    local t2 = clock()
    t.close[#t.close + 1], t.open[#t.open + 1] = t1 - t0, t2 - t1
    note(c)
    note(c2)
  end
  -- splits: a wall down column cx with one gap at row gy (where the map
  -- is open), the gap closed: timed; then the column restored (not timed)
  local splits = 0
  for i = 1, trials do
    local cx, gy
    repeat
      cx = r(w - 20) + 10
      gy = r(h)
    until not g:is_blocked(cx, gy)
    local was = {}
    for y = 1, h do
      was[y] = g:is_blocked(cx, y)
      if y ~= gy then g:set_blocked(cx, y, true) end
    end
    local ax, ay, bx, by
    repeat ax, ay = open_cell() until ax < cx
    repeat bx, by = open_cell() until bx > cx
    local before = g:connected(ax, ay, bx, by) -- not timed: labels the wall
    local t0 = clock()
    g:set_blocked(cx, gy, true)
    local c = g:connected(ax, ay, bx, by)
    local t1 = clock()
    if before and not c then splits = splits + 1 end
    t.split[#t.split + 1] = t1 - t0
    note(c)
    if i % 2 == 0 and not c then -- the unreachable early-out, after a fresh edit
      g:set_blocked(cx, gy, false)
      g:connected(ax, ay, bx, by)
      local t2 = clock()
      g:set_blocked(cx, gy, true)
      local p, why = g:find_path(ax, ay, bx, by)
      local t3 = clock()
      t.unreach[#t.unreach + 1] = t3 - t2
      note(p == nil and why)
    end
    for y = 1, h do g:set_blocked(cx, y, was[y]) end
    g:connected(ax, ay, bx, by)
  end
  -- walls of 64 cells in a row
  for _ = 1, trials do
    local x0, y = r(w - 64), r(h)
    local was = {}
    local ax, ay = open_cell()
    local bx, by = open_cell()
    local t0 = clock()
    for i = 0, 63 do
      was[i] = g:is_blocked(x0 + i, y)
      g:set_blocked(x0 + i, y, true)
    end
    local c = g:connected(ax, ay, bx, by)
    local t1 = clock()
    t.wall[#t.wall + 1] = t1 - t0
    note(c)
    for i = 0, 63 do g:set_blocked(x0 + i, y, was[i]) end
    g:connected(ax, ay, bx, by)
  end
  if g.would_disconnect then
    for _ = 1, trials do
      local x, y = open_cell()
      local ax, ay = open_cell()
      local bx, by = open_cell()
      local t0 = clock()
      g:would_disconnect(x, y, { { ax, ay }, { bx, by } })
      t.would[#t.would + 1] = clock() - t0
    end
  end
  local function line(name, v)
    if #v == 0 then return end
    local most = 0
    for _, s in ipairs(v) do most = math.max(most, s) end
    print(("row=%s median_ms=%.4f max_ms=%.4f n=%d"):format(name, median(v) * 1e3, most * 1e3, #v))
  end
  line("close", t.close)
  line("open", t.open)
  line("split", t.split)
  line("unreachable", t.unreach)
  line("wall64", t.wall)
  line("would_disconnect", t.would)
  print(("splits=%d memory=%d"):format(splits, g:memory()))
  -- a digest of the answers: the two builds must agree
  local sum = 0
  local all = table.concat(checks, ",")
  for i = 1, #all do sum = (sum * 31 + all:byte(i)) % 1000000007 end
  print(("check=%d"):format(sum))
end

if arg[1] == "--worker" then
  worker(arg[2], tonumber(arg[3]), tonumber(arg[4]))
  os.exit(0)
end

-- ---------------------------------------------------------------------------
-- the driver
-- ---------------------------------------------------------------------------

local BASE = arg[1] and not tonumber(arg[1]) and arg[1] or nil
local TRIALS = tonumber(arg[2] or (BASE == nil and arg[1]) or "")

local function run(dir, path, tile, trials)
  local cmd = ("LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='%s/?.so;;' %s bench/edits.lua "
    .. "--worker %s %d %d 2>&1"):format(dir, LUA, path, tile, trials)
  local p = assert(io.popen(cmd))
  local out = p:read("*a")
  p:close()
  local got = { rows = {} }
  for name, med, most in out:gmatch("row=(%S+) median_ms=(%S+) max_ms=(%S+)") do
    got.rows[name] = { med = tonumber(med), max = tonumber(most) }
  end
  got.check = out:match("check=(%d+)")
  got.memory = tonumber(out:match("memory=(%d+)"))
  got.splits = tonumber(out:match("splits=(%d+)"))
  if not got.check then error("bench/edits.lua worker failed: " .. cmd .. "\n" .. out) end
  return got
end

local ORDER = { "close", "open", "split", "unreachable", "wall64", "would_disconnect" }
local NAMES = {
  close = "close + connected", open = "open + connected", split = "split + connected",
  unreachable = "split + unreachable", wall64 = "wall of 64 + connected",
  would_disconnect = "would_disconnect",
}

print("edits: CPU ms per edit and the next question (median / largest over the trials)")
for _, m in ipairs(MAP_ROWS) do
  local path = MAPS .. "/" .. m.file
  if not exists(path) then
    print(("| %s | skipped: %s is absent |"):format(m.label, path))
  else
    local trials = TRIALS or m.trials
    if BASE then
      local A, B = {}, {}
      for i = 1, 3 do
        if i % 2 == 1 then
          A[i] = run(BASE, path, m.tile, trials); B[i] = run("build", path, m.tile, trials)
        else
          B[i] = run("build", path, m.tile, trials); A[i] = run(BASE, path, m.tile, trials)
        end
        if A[i].check ~= B[i].check then
          error(("%s: the base and this build disagree on the answers"):format(m.label))
        end
      end
      print(("\n%s (%d trials x 3 runs each side, %d splits a run; memory base %.1f MB, this %.1f MB)")
        :format(m.label, trials, B[1].splits, A[1].memory / 2 ^ 20, B[1].memory / 2 ^ 20))
      print("| operation | base median ms | base largest ms | this median ms | this largest ms | base / this |")
      print("|---|---:|---:|---:|---:|---:|")
      for _, name in ipairs(ORDER) do
        local am, bm, ax, bx = {}, {}, 0, 0
        for i = 1, 3 do
          if A[i].rows[name] then
            am[#am + 1] = A[i].rows[name].med
            ax = math.max(ax, A[i].rows[name].max)
          end
          if B[i].rows[name] then
            bm[#bm + 1] = B[i].rows[name].med
            bx = math.max(bx, B[i].rows[name].max)
          end
        end
        if #bm > 0 then
          local a, b = median(am), median(bm)
          local ratio = #am > 0 and (a / b < 10 and ("%.2f"):format(a / b) or ("%.0f"):format(a / b)) or "-"
          print(("| %s | %s | %s | %.3f | %.3f | %s |"):format(NAMES[name],
            #am > 0 and ("%.3f"):format(a) or "-", #am > 0 and ("%.3f"):format(ax) or "-", b, bx, ratio))
        end
      end
    else
      local B = run("build", path, m.tile, trials)
      print(("\n%s (%d trials, %d splits; memory %.1f MB)"):format(m.label, trials, B.splits,
        B.memory / 2 ^ 20))
      print("| operation | median ms | largest ms |")
      print("|---|---:|---:|")
      for _, name in ipairs(ORDER) do
        local row = B.rows[name]
        if row then print(("| %s | %.3f | %.3f |"):format(NAMES[name], row.med, row.max)) end
      end
    end
  end
end
