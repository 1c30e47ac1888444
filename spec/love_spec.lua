-- The LÖVE demo (examples/love) played headless under xvfb: it must build
-- against the LuaJIT module, play a fixed number of frames, write a real PNG
-- of the last one, report agents that completed paths and a monster that
-- searched, exit with status 0, and exit with a failure (not hang) on an
-- error.  Pending when love or xvfb-run is not installed.
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

describe("the LÖVE demo (examples/love)", function()
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
