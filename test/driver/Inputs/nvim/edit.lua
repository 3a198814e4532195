-- A headless editing session (test/driver/lsp-nvim.test): the open file's
-- diagnostics, then an edit that drops the stream's destroy, not saved
-- (its leak must appear), then the line put back (it must go). Writes one
-- line per step to $NVIM_TEST_OUT and quits.
local out = io.open(vim.env.NVIM_TEST_OUT, 'w')
local function say(s)
  out:write(s .. '\n')
  out:flush()
end
local buf = vim.api.nvim_get_current_buf()
local publishes = 0
local publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  if result and result.uri == vim.uri_from_bufnr(buf) then
    publishes = publishes + 1
  end
  return publish(err, result, ctx, config)
end
local function published(n, want)
  return vim.wait(120000, function()
    return publishes >= n and want(#vim.diagnostic.get(buf))
  end, 50)
end

say('filetype: ' .. vim.bo[buf].filetype)
say('open: ' .. tostring(published(1, function(n) return n == 0 end)) .. ', ' ..
    #vim.diagnostic.get(buf) .. ' diagnostics')

local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local destroy
for i, l in ipairs(lines) do
  if l:find('cudaStreamDestroy', 1, true) then destroy = i end
end
vim.api.nvim_buf_set_lines(buf, destroy - 1, destroy, false, {})
local ok = published(2, function(n) return n > 0 end)
local d = vim.diagnostic.get(buf)[1]
say('edited, not saved: ' .. tostring(ok) .. ', ' .. #vim.diagnostic.get(buf) ..
    ' diagnostics; modified=' .. tostring(vim.bo[buf].modified) ..
    (d and ('; line ' .. (d.lnum + 1) .. ': ' .. d.message) or ''))

vim.api.nvim_buf_set_lines(buf, destroy - 1, destroy - 1, false, { lines[destroy] })
ok = published(3, function(n) return n == 0 end)
say('fixed, not saved: ' .. tostring(ok) .. ', ' .. #vim.diagnostic.get(buf) .. ' diagnostics')
out:close()
vim.cmd('qall!')
