-- The LÖVE demo (examples/love) played headless under xvfb: it must build
-- against the LuaJIT module, play a fixed number of frames, write a real PNG
-- of the last one, report agents that completed paths and a monster that
-- searched, exit with status 0, and exit with a failure (not hang) on an
-- error.  The run also reports what it checked as it played: every walker's
-- position on an open block for its size, line of sight along every smoothed
-- segment, the 2 x 2 siege engine's paths, the any-angle and the hex scenes.  Pending when love or xvfb-run is not installed.
-- Heavy (LÖVE runs): tagged #system, run by make test-system.
--
-- Portable on purpose: the suite also runs under Lua 5.1, 5.3 and LuaJIT.

local FRAMES = 240

-- The repository root, from this file's own path (busted runs from the root,
-- where this gives ".").
local ROOT = debug.getinfo(1, "S").source:match("^@(.-)spec[/\\]love_spec%.lua$") or ""
if ROOT == "" then ROOT = "." end

local function quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- os.execute's exit status as a number on every Lua: 5.1 and LuaJIT return
-- the raw wait status (code * 256, or a signal number in the low bits); 5.2+
-- return ok, "exit" | "signal", code.
local function execute(cmd)
  local a, how, code = os.execute(require("helpers").unsanitized(cmd))
  if type(a) == "number" then
    if a % 256 ~= 0 then return 128 + a % 128 end
    return math.floor(a / 256)
  end
  if how == "signal" then return 128 + (code or 0) end
  return code or (a and 0 or 1)
end

local function have(tool) return execute("command -v " .. tool .. " >/dev/null 2>&1") == 0 end

local function slurp(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

local function temp_dir()
  local dir = os.tmpname()                 -- a fresh unique name (a file on POSIX)
  os.remove(dir)
  assert(execute("mkdir -p " .. quote(dir)) == 0, "cannot create " .. dir)
  return dir
end

-- Plays the demo headless; returns status, stdout, stderr.
local function play(dir, args)
  local out, err = dir .. "/stdout.txt", dir .. "/stderr.txt"
  local status = execute(("cd %s && timeout 120 xvfb-run -a love examples/love %s >%s 2>%s"):format(
    quote(ROOT), args, quote(out), quote(err)))
  return status, slurp(out) or "", slurp(err) or ""
end

-- A big-endian 32-bit integer at byte i of s (no bit operators: 5.1 too).
local function be32(s, i)
  local a, b, c, d = s:byte(i, i + 3)
  return ((a * 256 + b) * 256 + c) * 256 + d
end

describe("the LÖVE demo (examples/love) #system", function()
  if not (have("love") and have("xvfb-run") and have("timeout")) then
    pending("skipped: needs love (LÖVE 11), xvfb-run and timeout on PATH (Debian: apt-get install love xvfb)")
    return
  end

  local run -- the main headless run, played once and shared by the tests below
  local function played()
    if not run then
      local status = execute("cd " .. quote(ROOT) .. " && make -s build/luajit/astar/core.so")
      assert(status == 0, "make build/luajit/astar/core.so failed (status " .. status
        .. "; the LuaJIT headers come with libluajit-5.1-dev)")
      local dir = temp_dir()
      local shot = dir .. "/shot.png"
      local st, out, err = play(dir, ("--frames %d --screenshot %s"):format(FRAMES, quote(shot)))
      run = { dir = dir, shot = shot, status = st, out = out, err = err, png = slurp(shot) }
    end
    return run
  end

  it("plays the frames headless and exits with status 0", function()
    local r = played()
    assert.are.equal(0, r.status, "exit status " .. r.status .. "\nstdout:\n" .. r.out .. "\nstderr:\n" .. r.err)
  end)

  it("writes a PNG screenshot of the window", function()
    local r = played()
    assert.is_not_nil(r.png, "no screenshot at " .. r.shot .. "\nstderr:\n" .. r.err)
    assert.are.equal("\137PNG\r\n\26\n", r.png:sub(1, 8))
    assert.are.equal("IHDR", r.png:sub(13, 16))
    local w, h = be32(r.png, 17), be32(r.png, 21)
    assert.is_true(w >= 640 and w <= 4096 and h >= 480 and h <= 4096, ("odd size %d x %d"):format(w, h))
    -- a drawn level compresses to tens of kilobytes; a blank window to a few hundred bytes
    assert.is_true(#r.png > 10000 and #r.png < 10000000, "odd PNG of " .. #r.png .. " bytes")
  end)

  it("prints a summary: agents completed paths and the monster searched", function()
    local r = played()
    local line = r.out:match("(frames=%d+[^\n]*)")
    assert.is_not_nil(line, "no summary line in:\n" .. r.out .. "\nstderr:\n" .. r.err)
    assert.are.equal(FRAMES, tonumber(line:match("^frames=(%d+)")))
    local paths = tonumber(line:match("agent_paths=(%d+)"))
    local searches = tonumber(line:match("monster_searches=(%d+)"))
    local expansions = tonumber(line:match("expansions=(%d+)"))
    assert.is_true(paths ~= nil and paths > 0, line)
    assert.is_true(searches ~= nil and searches > 1, line)  -- it re-paths as it goes
    assert.is_true(expansions ~= nil and expansions > 0, line)
  end)

  it("walks smoothed routes in world coordinates, every position inside open cells", function()
    local r = played()
    local line = r.out:match("(walk: [^\n]*)")
    assert.is_not_nil(line, "no walk line in:\n" .. r.out .. "\nstderr:\n" .. r.err)
    -- checks: walker positions (one per walker per frame), each on a cell whose
    -- block is open for its size; segments: consecutive smoothed points, each
    -- with line_of_sight for the walker's size
    local checks, segments = tonumber(line:match("checks=(%d+)")), tonumber(line:match("segments=(%d+)"))
    assert.is_true(checks ~= nil and checks > 1000, line)
    assert.is_true(segments ~= nil and segments > 10, line)
    assert.are.equal("0", line:match("bad=(%d+)"))
  end)

  it("shuts a door across the walkers' paths, and the planner re-plans the paths it cuts", function()
    local r = played()
    local line = r.out:match("(gate: [^\n]*)")
    assert.is_not_nil(line, "no gate line in:\n" .. r.out .. "\nstderr:\n" .. r.err)
    assert.is_true(tonumber(line:match("toggles=(%d+)")) >= 2, line)
    assert.is_true(tonumber(line:match("invalidated=(%d+)")) >= 1, line)
    -- and no walker ever stood on it while shut: the walk line's bad=0 covers it
  end)

  it("rolls a 2 x 2 siege engine by the wide doors only", function()
    local r = played()
    local line = r.out:match("(walk: [^\n]*)")
    assert.is_not_nil(line, r.out)
    assert.is_true(tonumber(line:match("siege_paths=(%d+)")) >= 1, line)
    assert.are.equal("0", line:match("siege_bad=(%d+)"))  -- every cell of its paths has clearance >= 2
    local wide, narrow = tonumber(line:match("siege_wide=([%d.]+)")), tonumber(line:match("siege_narrow=([%d.]+)"))
    assert.is_true(wide > narrow + 5, line)                -- the narrow corridor is not for it
    -- the level itself: the small units' route squeezes through cells a 2 x 2
    -- block does not fit, the siege engine's route never does
    local astar = require("astar")
    local src = assert(slurp(ROOT .. "/examples/love/main.lua"))
    local level = assert(src:match("local LEVEL = %[%[\n(.-)%]%]"), "no LEVEL in main.lua")
    local g = astar.grid_from_string(level, { P = true, M = true })
    local stops = assert(src:match("local SIEGE_STOPS = (%b{})"), "no SIEGE_STOPS in main.lua")
    local ax, ay, bx, by = stops:match("{ { (%d+), (%d+) }, { (%d+), (%d+) } }")
    ax, ay, bx, by = tonumber(ax), tonumber(ay), tonumber(bx), tonumber(by)
    local big = assert(g:find_path(bx, by, ax, ay, { size = 2 }))
    local small = assert(g:find_path(bx, by, ax, ay))
    local tight = 0
    for _, c in ipairs(big.xy) do assert.is_true(g:clearance(c[1], c[2]) >= 2) end
    for _, c in ipairs(small.xy) do
      if g:clearance(c[1], c[2]) < 2 then tight = tight + 1 end
    end
    assert.is_true(tight > 0)
    assert.is_true(math.abs(big.length - wide) < 1e-3 and math.abs(small.length - narrow) < 1e-3, line)
  end)

  it("shows the any-angle scene in the cycle, with a path no longer than the grid path", function()
    local r = played()
    local line = r.out:match("(scene2: [^\n]*)")
    assert.is_not_nil(line, "no scene2 line in:\n" .. r.out)
    assert.is_true(tonumber(line:match("frames=(%d+)")) > 0, line)
    assert.is_true(tonumber(line:match("draws=(%d+)")) > 0, line)
    assert.is_true(tonumber(line:match("points=(%d+)")) >= 2, line)
    local len, grid_len = tonumber(line:match(" length=([%d.]+)")), tonumber(line:match("grid_length=([%d.]+)"))
    assert.is_true(len > 0 and len < grid_len, line)
    -- ok: the points start and end at the start and the goal, consecutive
    -- points have line of sight, and the length is at most the grid path's
    assert.are.equal("true", line:match("ok=(%a+)"))
  end)

  it("shows the hex scene in the cycle, with a valid hex path", function()
    local r = played()
    local line = r.out:match("(scene3: [^\n]*)")
    assert.is_not_nil(line, "no scene3 line in:\n" .. r.out)
    assert.is_true(tonumber(line:match("frames=(%d+)")) > 0, line)
    assert.is_true(tonumber(line:match("draws=(%d+)")) > 0, line)
    local steps, cost = tonumber(line:match("steps=(%d+)")), tonumber(line:match("cost=([%d.]+)"))
    assert.is_true(steps > 0 and cost >= steps, line)   -- marsh cells cost 3
    -- ok: from the start to the goal, every step to one of the six
    -- neighbours and onto an open cell, the cost the sum of the entered cells'
    assert.are.equal("true", line:match("ok=(%a+)"))
  end)

  for _, scene in ipairs({ 2, 3 }) do
    it("renders scene " .. scene .. " alone with --scene " .. scene, function()
      played()                             -- the module is built
      local dir = temp_dir()
      local shot = dir .. "/scene.png"
      local status, out, err = play(dir, ("--frames 20 --scene %d --screenshot %s"):format(scene, quote(shot)))
      assert.are.equal(0, status, err)
      local png = slurp(shot)
      assert.is_not_nil(png, err)
      assert.are.equal("\137PNG\r\n\26\n", png:sub(1, 8))
      assert.is_true(#png > 10000, "odd PNG of " .. #png .. " bytes")
      assert.is_truthy(out:find("scene" .. scene .. ": frames=20 draws=20 ", 1, true), out)
      assert.is_truthy(out:find("agent_paths=0 ", 1, true), out)  -- the level waited
      os.remove(shot); os.remove(dir .. "/stdout.txt"); os.remove(dir .. "/stderr.txt"); os.remove(dir)
    end)
  end

  it("is deterministic with --frames (a fixed dt, a seeded generator)", function()
    played()                               -- the module is built
    local dir = temp_dir()
    local s1, a = play(dir, "--frames 60 --heuristic zero")
    local s2, b = play(dir, "--frames 60 --heuristic zero")
    assert.are.equal(0, s1)
    assert.are.equal(0, s2)
    assert.is_truthy(a:find("heuristic=zero", 1, true), a)
    assert.are.equal(a, b)
    os.remove(dir .. "/stdout.txt"); os.remove(dir .. "/stderr.txt"); os.remove(dir)
  end)

  it("fails with a non-zero status instead of hanging on an error", function()
    local dir = temp_dir()
    local status, _, err = play(dir, "--frames 10 --no-such-option")
    assert.is_true(status ~= 0 and status ~= 124, "status " .. status)  -- 124: timeout killed it
    assert.is_truthy(err:find("unknown argument --no-such-option", 1, true), err)
    os.remove(dir .. "/stdout.txt"); os.remove(dir .. "/stderr.txt"); os.remove(dir)
  end)

  teardown(function()
    if run then
      os.remove(run.shot); os.remove(run.dir .. "/stdout.txt"); os.remove(run.dir .. "/stderr.txt")
      os.remove(run.dir)
    end
  end)
end)

-- doc/shipping.md's LÖVE recipe, played as written: its ```lua main.lua block
-- (package.cpath from getSource / getSourceBaseDirectory) heads a small
-- game, with the Lua part copied inside the game and the LuaJIT module put
-- where the page's table says, in each of the three layouts.  Each run
-- starts in an empty directory without LUA_PATH / LUA_CPATH, so the module
-- can only be found where the recipe looks; the game reports the file its
-- cpath resolves to and a path found through it.
-- The demo where the native module cannot load (LÖVE on Android and iOS,
-- love.js): a .love holding the Lua files alone (astar.lua, astar/ with the
-- pure-Lua backend astar/pure/) and no astar/core.so anywhere LÖVE looks.
-- require("astar") falls back to the pure-Lua backend; the level runs on
-- cell paths (the siege engine and the other scenes need the native module).
describe("the LÖVE demo without the native module (a .love of Lua files) #system", function()
  if not (have("love") and have("xvfb-run") and have("timeout") and have("zip")) then
    pending("skipped: needs love (LÖVE 11), xvfb-run, timeout and zip on PATH (Debian: apt-get install love xvfb zip)")
    return
  end

  local run
  local function played()
    if run then return run end
    local dir = temp_dir()
    local game = dir .. "/game"
    assert(execute(("mkdir -p %s/astar %s/cwd && cp %s/examples/love/main.lua %s/examples/love/conf.lua %s/ "
      .. "&& cp %s/lua/astar.lua %s/ && cp -r %s/lua/astar/. %s/astar/ && cd %s && zip -q -r ../demo.love .")
      :format(quote(game), quote(dir), quote(ROOT), quote(ROOT), quote(game), quote(ROOT), quote(game),
        quote(ROOT), quote(game), quote(game))) == 0, "cannot build the .love")
    local out, shot = dir .. "/out.txt", dir .. "/shot.png"
    local status = execute(("cd %s/cwd && env -u LUA_PATH -u LUA_CPATH -u ASTAR_BACKEND timeout 120 xvfb-run -a "
      .. "love %s/demo.love --frames %d --screenshot %s >%s 2>&1")
      :format(quote(dir), quote(dir), FRAMES, quote(shot), quote(out)))
    run = { status = status, out = slurp(out) or "", png = slurp(shot), dir = dir }
    return run
  end

  it("plays the level on the pure-Lua backend and exits with status 0", function()
    local r = played()
    assert.are.equal(0, r.status, "exit status " .. r.status .. "\n" .. r.out)
    assert.is_truthy(r.out:find("backend=lua", 1, true), r.out)
    assert.is_truthy(r.png and r.png:sub(1, 8) == "\137PNG\r\n\26\n", "no PNG screenshot")
  end)

  it("agents complete paths and the monster searches; every walker stays on open cells", function()
    local r = played()
    local paths = tonumber(r.out:match("agent_paths=(%d+)"))
    local searches = tonumber(r.out:match("monster_searches=(%d+)"))
    assert(paths and paths > 0 and searches and searches > 0, r.out)
    local checks, segments, bad = r.out:match("walk: checks=(%d+) segments=(%d+) bad=(%d+)")
    assert(tonumber(checks) > 0 and tonumber(segments) > 0, r.out)
    assert.are.equal("0", bad, r.out)
  end)

  teardown(function()
    if run then execute("rm -rf " .. quote(run.dir)) end
  end)
end)

describe("shipping a LÖVE game (doc/shipping.md) #system", function()
  if not (have("love") and have("xvfb-run") and have("timeout") and have("zip")) then
    pending("skipped: needs love (LÖVE 11), xvfb-run, timeout and zip on PATH (Debian: apt-get install love xvfb zip)")
    return
  end

  local TAIL = [[

function love.load()
  local g = astar.grid(20, 20)
  for y = 3, 18 do g:set_blocked(10, y, true) end
  local p = assert(g:find_path(2, 10, 18, 10))
  -- the file the standard C searcher resolves astar.core to
  local found
  for template in package.cpath:gmatch("[^;]+") do
    local path = template:gsub("%?", "astar/core")
    local f = io.open(path, "rb")
    if f then f:close(); found = path; break end
  end
  print(("shipped: fused=%s module=%s cost=%.6f"):format(tostring(love.filesystem.isFused()),
    tostring(found), p.cost))
  love.event.quit(0)
end
]]

  local CONF = "function love.conf(t) t.modules.audio = false; t.modules.sound = false end\n"

  -- before the recipe: an error (a module not found) exits with status 3
  -- instead of LÖVE's error screen, which would wait for a key
  local HEAD = [[
function love.errorhandler(msg)
  io.stderr:write("error: ", tostring(msg), "\n")
  io.stderr:flush()
  os.exit(3)
end
]]

  local root -- the temporary tree, made once: game/, the .love, the module
  local function prepare()
    if root then return root end
    local status = execute("cd " .. quote(ROOT) .. " && make -s build/luajit/astar/core.so")
    assert(status == 0, "make build/luajit/astar/core.so failed (status " .. status .. ")")
    local doc = assert(slurp(ROOT .. "/doc/shipping.md"), "no doc/shipping.md")
    local recipe = doc:match("```lua main%.lua\n(.-)```")
    assert(recipe, "doc/shipping.md has no ```lua main.lua block")
    root = temp_dir()
    local game = root .. "/game"
    assert(execute(("mkdir -p %s/astar %s/cwd && cp %s/lua/astar.lua %s/ && cp %s/lua/astar/*.lua %s/astar/")
      :format(quote(game), quote(root), quote(ROOT), quote(game), quote(ROOT), quote(game))) == 0)
    local f = assert(io.open(game .. "/main.lua", "wb"))
    f:write(HEAD, recipe, TAIL)
    f:close()
    f = assert(io.open(game .. "/conf.lua", "wb"))
    f:write(CONF)
    f:close()
    -- the archive holds the Lua files only: native code cannot load from it
    assert(execute(("cd %s && zip -q -r ../mygame.love .")
      :format(quote(game))) == 0, "zip failed")
    return root
  end

  local function install_module(dir)
    assert(execute(("mkdir -p %s/astar && cp %s/build/luajit/astar/core.so %s/astar/core.so")
      :format(quote(dir), quote(ROOT), quote(dir))) == 0)
  end

  -- runs `command` (love and its argument) from root/cwd; returns status, output
  local function launch(command)
    local out = root .. "/out.txt"
    local status = execute(("cd %s/cwd && env -u LUA_PATH -u LUA_CPATH timeout 120 xvfb-run -a %s >%s 2>&1")
      :format(quote(root), command, quote(out)))
    local text = slurp(out) or ""
    os.remove(out)
    return status, text
  end

  local function check(status, out, fused, module)
    assert.are.equal(0, status, "exit status " .. status .. "\n" .. out)
    local line = out:match("shipped: ([^\n]*)")
    assert.is_not_nil(line, "no report line in:\n" .. out)
    assert.are.equal(fused, line:match("fused=(%a+)"))
    assert.are.equal(module, line:match("module=(%S+)"))
    assert.is_true(math.abs(tonumber(line:match("cost=([%d.]+)")) - 23.798990) < 1e-5, line)
  end

  it("development: love mygame, the module in the game folder", function()
    local r = prepare()
    local dir = r .. "/dev"
    assert(execute(("rm -rf %s && cp -r %s %s"):format(quote(dir), quote(r .. "/game"), quote(dir))) == 0)
    install_module(dir)
    local status, out = launch("love " .. quote(dir))
    check(status, out, "false", dir .. "/astar/core.so")
  end)

  it("a .love file: love mygame.love, the module beside it", function()
    local r = prepare()
    local dir = r .. "/lovefile"
    assert(execute(("mkdir -p %s && cp %s %s/"):format(quote(dir), quote(r .. "/mygame.love"), quote(dir))) == 0)
    install_module(dir)
    local status, out = launch("love " .. quote(dir .. "/mygame.love"))
    check(status, out, "false", dir .. "/astar/core.so")
  end)

  it("fused: the love executable with the .love appended, the module beside it", function()
    local r = prepare()
    local dir = r .. "/fused"
    assert(execute(("mkdir -p %s && cat \"$(readlink -f \"$(command -v love)\")\" %s > %s/mygame && chmod +x %s/mygame")
      :format(quote(dir), quote(r .. "/mygame.love"), quote(dir), quote(dir))) == 0)
    install_module(dir)
    local status, out = launch(quote(dir .. "/mygame"))
    check(status, out, "true", dir .. "/astar/core.so")
  end)

  it("fails to find the module when it is only inside the archive (why the recipe exists)", function()
    local r = prepare()
    local dir = r .. "/inside"
    local game = r .. "/game-with-module"
    assert(execute(("rm -rf %s && cp -r %s %s"):format(quote(game), quote(r .. "/game"), quote(game))) == 0)
    install_module(game)
    assert(execute(("mkdir -p %s && cd %s && zip -q -r %s/mygame.love .")
      :format(quote(dir), quote(game), quote(dir))) == 0)
    local status, out = launch("love " .. quote(dir .. "/mygame.love"))
    assert.are.equal(3, status, "status " .. status .. "\n" .. out)  -- 124: timeout killed it
    assert.is_truthy(out:find("error: [^\n]*module 'astar.core' not found"), out)
  end)

  teardown(function()
    if root then execute("rm -rf " .. quote(root)) end
  end)
end)
