-- Neovim (0.7.2, Debian's package) as a real client of `skb lsp`, headless:
--   SKB=target/debug/skb SKILL_MD=/abs/dir/SKILL.md OUT=/abs/out.json EDITS=20 \
--     nvim --headless -u NONE -c 'luafile tests/lsp/neovim.lua'
-- Opens SKILL_MD, waits for the server's diagnostics, asks for the code
-- actions at the first SK205, applies "Use `...`" with Neovim's own
-- workspace-edit code (which sends the change), waits for SK205 to go,
-- hovers the `description` key, then (EDITS > 0) times EDITS edits from
-- the change to the diagnostics of that version; writes everything to OUT
-- as JSON for tests/lsp/test_neovim.py to assert on. With BENCH=1 only the
-- timed edits run (scripts/bench-lsp.sh); LSP_ARGS adds arguments to
-- `skb lsp` (`--no-scan`).
local skb, file, out = os.getenv("SKB"), os.getenv("SKILL_MD"), os.getenv("OUT")
local edits = tonumber(os.getenv("EDITS") or "0")
local result = { errors = {} }
local function finish()
  vim.fn.writefile({ vim.fn.json_encode(result) }, out)
  vim.cmd("qa!")
end
local ok, err = pcall(function()
  local published = {}
  local client_id = vim.lsp.start_client({
    name = "skb",
    cmd = vim.list_extend({ skb, "lsp", "--debounce", "0" }, vim.split(os.getenv("LSP_ARGS") or "", " ", { trimempty = true })),
    root_dir = vim.fn.fnamemodify(file, ":h"),
    -- Neovim 0.7 waits 150 ms after a change before sending it: sent at
    -- once here, so that the timing is the server's.
    flags = { debounce_text_changes = 0 },
    handlers = {
      ["textDocument/publishDiagnostics"] = function(e, params, ctx, config)
        published[#published + 1] = { version = params.version, at = vim.loop.hrtime(), diagnostics = params.diagnostics }
        vim.lsp.diagnostic.on_publish_diagnostics(e, params, ctx, config)
      end,
    },
  })
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client_id)
  local client = vim.lsp.get_client_by_id(client_id)
  -- The server's diagnostics as published (Neovim 0.7 keeps no LSP range
  -- in `vim.diagnostic`), the latest first; and Neovim's count of them.
  local function codes()
    local found = {}
    local p = published[#published]
    for _, d in ipairs(p and p.diagnostics or {}) do
      found[#found + 1] = { code = d.code, source = d.source, range = d.range, message = d.message }
    end
    return found
  end
  local function has(code)
    for _, d in ipairs(codes()) do
      if d.code == code then return d end
    end
  end
  local uri = vim.uri_from_bufnr(buf)
  local function check()
    if not vim.wait(60000, function() return has("SK205") ~= nil end, 20) then
      error("no SK205 published: " .. vim.inspect(codes()))
    end
    result.before = codes()
    result.shown = #vim.diagnostic.get(buf)
    local d = has("SK205")
    local actions = client.request_sync("textDocument/codeAction", {
      textDocument = { uri = uri },
      range = d.range,
      context = { diagnostics = { } },
    }, 30000, buf)
    result.actions = {}
    local chosen
    for _, a in ipairs(actions and actions.result or {}) do
      result.actions[#result.actions + 1] = a.title
      if a.title:match("^Use `") and not chosen then chosen = a end
    end
    if not chosen then error("no quick-fix offered: " .. vim.inspect(actions)) end
    vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding)
    result.applied = chosen.title
    if not vim.wait(60000, function() return has("SK205") == nil and #published >= 2 end, 20) then
      error("SK205 still there after the fix: " .. vim.inspect(codes()))
    end
    result.after = codes()
    result.line = vim.api.nvim_buf_get_lines(buf, 1, 2, false)[1]
    local hover = client.request_sync("textDocument/hover", {
      textDocument = { uri = uri },
      position = { line = 2, character = 3 },
    }, 30000, buf)
    result.hover = hover and hover.result and hover.result.contents.value or vim.NIL
  end
  if os.getenv("BENCH") then
    -- Only the timing: the first diagnostics, then the edits below.
    if not vim.wait(120000, function() return #published > 0 end, 5) then
      error("no diagnostics published")
    end
    result.before = codes()
  else
    check()
  end
  -- Edit to diagnostics: each edit appends a character to the last line
  -- and waits for the diagnostics of the buffer's new version.
  result.edit_ms = {}
  local last = vim.api.nvim_buf_line_count(buf)
  for i = 1, edits do
    local version = vim.lsp.util.buf_versions[buf] + 1
    local start = vim.loop.hrtime()
    local text = vim.api.nvim_buf_get_lines(buf, last - 1, last, false)[1]
    vim.api.nvim_buf_set_lines(buf, last - 1, last, false, { text .. "x" })
    local got = vim.wait(120000, function()
      local p = published[#published]
      return p ~= nil and p.version ~= nil and p.version >= version
    end, 1)
    if not got then error("no diagnostics for edit " .. i) end
    result.edit_ms[#result.edit_ms + 1] = (published[#published].at - start) / 1e6
  end
  client.stop()
  vim.wait(10000, function() return client.is_stopped() end, 20)
end)
if not ok then result.errors[#result.errors + 1] = tostring(err) end
finish()
