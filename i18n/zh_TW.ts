<?xml version='1.0' encoding='utf-8'?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_TW">
<context>
    <name>AgentDialog</name>
    <message>
        <source>Edit agent</source>
        <translation>編輯智慧體</translation>
    </message>
    <message>
        <source>New agent</source>
        <translation>新建智慧體</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名稱</translation>
    </message>
    <message>
        <source>Runtime</source>
        <translation>運行時</translation>
    </message>
    <message>
        <source>Permissions</source>
        <translation>權限</translation>
    </message>
    <message>
        <source>Providers…</source>
        <translation>服務商…</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏覽…</translation>
    </message>
    <message>
        <source>Workspace</source>
        <translation>工作區</translation>
    </message>
    <message>
        <source>Optional system prompt</source>
        <translation>可選的系統提示詞</translation>
    </message>
    <message>
        <source>Instructions</source>
        <translation>指令</translation>
    </message>
    <message>
        <source>Ask before edits and commands</source>
        <translation>編輯和執行命令前詢問</translation>
    </message>
    <message>
        <source>Accept file edits, ask before commands</source>
        <translation>自動接受文件編輯，執行命令前詢問</translation>
    </message>
    <message>
        <source>Plan only (no changes)</source>
        <translation>仅規劃（不做修改）</translation>
    </message>
    <message>
        <source>Never ask (trusted workspace)</source>
        <translation>從不詢問（受信任的工作區）</translation>
    </message>
    <message>
        <source>No model fits this runtime yet: add an Anthropic provider, or mark an Anthropic-compatible one, in Providers.</source>
        <translation>還沒有適用於此執行環境的模型：請在「服務商」中新增 Anthropic 服務商，或將某個服務商標記為相容 Anthropic。</translation>
    </message>
    <message>
        <source>No API key is stored for %1: %2 signs in with your own %2 login.</source>
        <translation>%1 沒有儲存 API 金鑰：%2 將使用你自己的 %2 登入。</translation>
    </message>
    <message>
        <source>No API key is stored for %1, and %2 needs one: add it in Providers.</source>
        <translation>%1 沒有儲存 API 金鑰，而 %2 需要金鑰：請在「服務商」中新增。</translation>
    </message>
    <message>
        <source>Choose a workspace folder</source>
        <translation>選擇工作區文件夾</translation>
    </message>
    <message>
        <source>Give the agent a name.</source>
        <translation>請為智慧體命名。</translation>
    </message>
    <message>
        <source>No agent runtime is available.</source>
        <translation>沒有可用的智慧體運行時。</translation>
    </message>
    <message>
        <source>The workspace folder does not exist.</source>
        <translation>工作區文件夾不存在。</translation>
    </message>
    <message>
        <source>%1 reaches this model through Cherry's API gateway (Settings, API gateway).</source>
        <translation>%1 透過 Cherry 的 API 閘道存取此模型（設定 › API 閘道）。</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP 伺服器</translation>
    </message>
    <message>
        <source>Skills</source>
        <translation>技能</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>代理</translation>
    </message>
</context>
<context>
    <name>AgentRuntime</name>
    <message>
        <source>agent.runtime.claude_code</source>
        <translation>Claude Code</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.Read</source>
        <translation>讀取檔案</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.Glob</source>
        <translation>按模式尋找檔案</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.Grep</source>
        <translation>搜尋檔案內容</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.LS</source>
        <translation>列出資料夾</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.Write</source>
        <translation>寫入檔案</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.Edit</source>
        <translation>編輯檔案</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.MultiEdit</source>
        <translation>多處編輯檔案</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.NotebookEdit</source>
        <translation>編輯筆記本</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.Bash</source>
        <translation>執行 shell 命令</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.BashOutput</source>
        <translation>讀取 shell 輸出</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.KillShell</source>
        <translation>停止 shell</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.WebFetch</source>
        <translation>擷取網頁</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.WebSearch</source>
        <translation>搜尋網路</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.Task</source>
        <translation>執行子智能體</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.TodoWrite</source>
        <translation>維護待辦清單</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.ExitPlanMode</source>
        <translation>離開計畫模式</translation>
    </message>
    <message>
        <source>agent.runtime.pi</source>
        <translation>pi</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.read</source>
        <translation>讀取檔案</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.grep</source>
        <translation>搜尋檔案內容</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.find</source>
        <translation>尋找檔案</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.ls</source>
        <translation>列出資料夾</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.edit</source>
        <translation>編輯檔案</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.write</source>
        <translation>寫入檔案</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.bash</source>
        <translation>執行 shell 命令</translation>
    </message>
    <message>
        <source>agent.runtime.acp</source>
        <translation>ACP 智慧代理</translation>
    </message>
    <message>
        <source>agent.runtime.acp.claude-agent-acp</source>
        <translation>Claude Agent</translation>
    </message>
    <message>
        <source>agent.runtime.acp.opencode</source>
        <translation>opencode</translation>
    </message>
</context>
<context>
    <name>ApprovalCard</name>
    <message>
        <source>Deny (Esc)</source>
        <translation>拒絕 (Esc)</translation>
    </message>
    <message>
        <source>Allow (Enter)</source>
        <translation>允許 (Enter)</translation>
    </message>
    <message>
        <source>Allow the agent to run %1?</source>
        <translation>允許智慧體運行 %1 嗎？</translation>
    </message>
    <message>
        <source>Always allow %1 in this session</source>
        <translation>本工作階段中一律允許 %1</translation>
    </message>
    <message>
        <source>Approve plan</source>
        <translation>核准計畫</translation>
    </message>
    <message>
        <source>Keep planning</source>
        <translation>繼續規劃</translation>
    </message>
    <message>
        <source>The agent's plan is ready</source>
        <translation>智慧體的計畫已就緒</translation>
    </message>
    <message>
        <source>Read it above. Approve it and the agent starts working, or keep planning and tell it what to change.</source>
        <translation>請閱讀上方的計畫。核准後智慧體開始工作；或繼續規劃，並告訴它需要修改什麼。</translation>
    </message>
    <message>
        <source>Deny with a reason (optional): tell the agent what to do instead</source>
        <translation>拒絕理由（選填）：告訴智慧體改做什麼</translation>
    </message>
    <message>
        <source>%1 moves here, then Enter allows and Esc denies</source>
        <translation>%1 移到此處，然後 Enter 允許、Esc 拒絕</translation>
    </message>
    <message>
        <source>What should change in the plan? (optional)</source>
        <translation>計畫需要修改什麼？（選填）</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>允許</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>拒絕</translation>
    </message>
</context>
<context>
    <name>ChatHeader</name>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Providers…</source>
        <translation>服務商…</translation>
    </message>
    <message>
        <source>Add providers, models and API keys</source>
        <translation>新增服務商、模型與 API 金鑰</translation>
    </message>
    <message>
        <source>Open Providers…</source>
        <translation>開啟服務商…</translation>
    </message>
    <message>
        <source>Choose a model…</source>
        <translation>選擇模型…</translation>
    </message>
    <message>
        <source>%1 (unavailable)</source>
        <translation>%1（無法使用）</translation>
    </message>
    <message>
        <source>No models: add a provider first</source>
        <translation>沒有模型：請先新增服務商</translation>
    </message>
    <message>
        <source>Ask several models at once; their answers show side by side</source>
        <translation>同時詢問多個模型，回答並排顯示</translation>
    </message>
    <message>
        <source>Ask only this chat's model</source>
        <translation>只詢問此對話的模型</translation>
    </message>
    <message>
        <source>+ %1</source>
        <translation>+ %1</translation>
    </message>
    <message>
        <source>Compare with…</source>
        <translation>比較…</translation>
    </message>
    <message>
        <source>%1 (needs an API key)</source>
        <translation>%1（需要 API 金鑰）</translation>
    </message>
    <message>
        <source>Add the key of %1 in Providers to ask this model</source>
        <translation>在「服務商」中新增 %1 的金鑰即可詢問此模型</translation>
    </message>
</context>
<context>
    <name>ChatWindow</name>
    <message>
        <source>Cherry Desktop</source>
        <translation>Cherry Desktop</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Open in new window</source>
        <translation>在新視窗中打開</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>新建對話</translation>
    </message>
    <message>
        <source>New agent…</source>
        <translation>新建智慧體…</translation>
    </message>
    <message>
        <source>Providers and API keys…</source>
        <translation>服務商與 API 金鑰…</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>設置…</translation>
    </message>
    <message>
        <source>Close window</source>
        <translation>關閉視窗</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>Open or create a chat to write a message</source>
        <translation>開啟或新建一個對話後即可輸入訊息</translation>
    </message>
    <message>
        <source>Queued for the next turn</source>
        <translation>已加入隊列，下一輪發送</translation>
    </message>
    <message>
        <source>Steered into the running turn</source>
        <translation>已插入當前回合</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>新建會話</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名稱</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>刪除</translation>
    </message>
    <message>
        <source>Delete this conversation?</source>
        <translation>刪除此對話？</translation>
    </message>
    <message>
        <source>This part of the app is not available yet (%1).</source>
        <translation>應用的這部分暫不可用（%1）。</translation>
    </message>
    <message>
        <source>%1 is allowed without asking for the rest of this session</source>
        <translation>本工作階段剩餘時間內 %1 無需再詢問即可執行</translation>
    </message>
    <message>
        <source>Export to Markdown…</source>
        <translation>匯出為 Markdown…</translation>
    </message>
    <message>
        <source>That message is on another branch of this chat</source>
        <translation>該訊息位於此聊天的另一個分支上</translation>
    </message>
    <message>
        <source>Back up…</source>
        <translation>備份…</translation>
    </message>
    <message>
        <source>Restore…</source>
        <translation>還原…</translation>
    </message>
    <message>
        <source>Show sidebar</source>
        <translation>顯示側邊欄</translation>
    </message>
    <message>
        <source>Show or hide the sidebar (%1)</source>
        <translation>顯示或隱藏側邊欄（%1）</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>檢視(&amp;V)</translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <source>Attach images or text files (or paste / drop them here)</source>
        <translation>附加圖片或文字檔案（也可貼上或拖放到這裡）</translation>
    </message>
    <message>
        <source>Attach…</source>
        <translation>附件…</translation>
    </message>
    <message>
        <source>Message (Enter to send, Shift+Enter for a new line)</source>
        <translation>輸入消息（Enter 發送，Shift+Enter 換行）</translation>
    </message>
    <message>
        <source>Steer now</source>
        <translation>立即引導</translation>
    </message>
    <message>
        <source>Inject into the running turn (Ctrl+Enter)</source>
        <translation>插入正在進行的回合 (Ctrl+Enter)</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>排隊</translation>
    </message>
    <message>
        <source>Send as the next turn (Enter)</source>
        <translation>作為下一輪發送 (Enter)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the reply (Esc)</source>
        <translation>停止回覆 (Esc)</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>發送</translation>
    </message>
    <message>
        <source>Send (Enter)</source>
        <translation>發送 (Enter)</translation>
    </message>
    <message>
        <source>Replying… Ctrl+Enter steers, Enter queues, Esc stops.</source>
        <translation>正在回覆… Ctrl+Enter 引導，Enter 排隊，Esc 停止。</translation>
    </message>
    <message>
        <source>Editing a sent message: Enter sends it again, Esc cancels.</source>
        <translation>正在編輯已傳送的訊息：Enter 重新傳送，Esc 取消。</translation>
    </message>
    <message>
        <source>Replying… Enter queues the next turn, Esc stops.</source>
        <translation>正在回覆… Enter 排入下一輪，Esc 停止。</translation>
    </message>
</context>
<context>
    <name>EmptyState</name>
    <message>
        <source>Nothing is open</source>
        <translation>尚未開啟任何內容</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>新建對話</translation>
    </message>
    <message>
        <source>New agent…</source>
        <translation>新建智慧體…</translation>
    </message>
    <message>
        <source>Providers and API keys…</source>
        <translation>服務商與 API 金鑰…</translation>
    </message>
    <message>
        <source>Chats answer with a model of one of your providers: add an API key in Providers, or use a local server such as Ollama. Claude Code agents work in a folder you choose and can use your own Claude Code login.

To try everything offline, without an account, start the app with cherry-desktop --demo</source>
        <translation>對話使用你的某個服務商的模型作答：請在「服務商」中新增 API 金鑰，或使用 Ollama 等本機服務。Claude Code 智慧體在你選擇的資料夾中工作，並可使用你自己的 Claude Code 登入。

想在沒有帳號的情況下離線體驗全部功能，請用以下指令啟動應用程式：cherry-desktop --demo</translation>
    </message>
    <message>
        <source>Open a chat or an agent session from the list on the left, or start something new.</source>
        <translation>從左側清單開啟一個對話或智慧體會話，或新建一個。</translation>
    </message>
    <message>
        <source>Welcome to Cherry Desktop</source>
        <translation>歡迎使用 Cherry Desktop</translation>
    </message>
    <message>
        <source>Create a chat to talk with a model, or an agent to let Claude Code work in a folder of yours.</source>
        <translation>新建對話與模型交流，或新建智慧體，讓 Claude Code 在你的資料夾中工作。</translation>
    </message>
    <message>
        <source>This is Cherry's offline demo: no account, no network. Open the demo agent's session on the left to watch an agent run a tool, approve it, and steer it while it works; or start a new chat, which the demo model answers.</source>
        <translation>這是 Cherry 的離線示範：無需帳號，無需連網。打開左側示範智慧體的工作階段，觀看智慧體執行工具、核准它，並在它工作時引導它；或新建一個聊天，由示範模型回答。</translation>
    </message>
</context>
<context>
    <name>ErrorBlock</name>
    <message>
        <source>The reply failed: %1</source>
        <translation>回覆失敗：%1</translation>
    </message>
</context>
<context>
    <name>IssueWords</name>
    <message>
        <source>No usable keyring backend was found, so API keys cannot be stored. On Linux install and unlock a Secret Service provider (GNOME Keyring or KWallet), or `pip install keyrings.alt` for a file-based keyring; then restart Cherry Desktop.</source>
        <translation>找不到可用的鑰匙圈後端，因此無法儲存 API 金鑰。在 Linux 上請安裝並解鎖 Secret Service 提供者（GNOME Keyring 或 KWallet），或執行 `pip install keyrings.alt` 使用以檔案為基礎的鑰匙圈；然後重新啟動 Cherry Desktop。</translation>
    </message>
    <message>
        <source>This chat has no model yet. Choose one in the Model list above.</source>
        <translation>此對話還沒有模型。請在上方的「模型」清單中選擇一個。</translation>
    </message>
    <message>
        <source>%1 is turned off. Turn it on in Providers, or choose another model.</source>
        <translation>%1 已關閉。請在「服務商」中啟用它，或選擇其他模型。</translation>
    </message>
    <message>
        <source>%1 needs an API key. Add it in Providers, then send again.</source>
        <translation>%1 需要 API 金鑰。請在「服務商」中新增，然後重新傳送。</translation>
    </message>
    <message>
        <source>%1 needs an API key, but no key can be stored on this system.</source>
        <translation>%1 需要 API 金鑰，但此系統無法儲存金鑰。</translation>
    </message>
    <message>
        <source>The model of this chat is no longer available. Choose another one.</source>
        <translation>此對話的模型已無法使用。請選擇其他模型。</translation>
    </message>
    <message>
        <source>A model this chat also asked is no longer available and is not asked any more. Choose others with “Compare with…”.</source>
        <translation>此對話同時詢問的一個模型已無法使用，不會再詢問它。請透過「比較…」選擇其他模型。</translation>
    </message>
    <message>
        <source>The agent's new settings could not be applied to the running session, so it was paused. Queued messages wait until you resume them.</source>
        <translation>智慧體的新設定無法套用到正在執行的工作階段，因此工作階段已暫停。排隊的訊息會等待你恢復。</translation>
    </message>
    <message>
        <source>The next queued message could not be started. It stays queued; resume it when ready.</source>
        <translation>下一則排隊訊息無法開始。它仍在佇列中；準備好後請恢復。</translation>
    </message>
    <message>
        <source>Queued messages are on hold: this session cannot run (%1).</source>
        <translation>排隊的訊息已暫停：此工作階段無法執行（%1）。</translation>
    </message>
    <message>
        <source>%1 is not asked: %2 has no API key or is turned off. Add the key in Providers, or uncheck the model in “Compare with…”; the other models answer.</source>
        <translation>未詢問 %1：%2 沒有 API 金鑰或已關閉。請在「服務商」中新增金鑰，或在「比較…」中取消勾選該模型；其他模型照常回答。</translation>
    </message>
</context>
<context>
    <name>MessageRow</name>
    <message>
        <source>You (steer)</source>
        <translation>你（引導）</translation>
    </message>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助理</translation>
    </message>
    <message>
        <source>thinking…</source>
        <translation>思考中…</translation>
    </message>
    <message>
        <source>streaming…</source>
        <translation>生成中…</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>cut short</source>
        <translation>已中斷</translation>
    </message>
    <message>
        <source>The agent process ended before finishing; this answer is incomplete.</source>
        <translation>智慧體程序在完成前結束；此回答不完整。</translation>
    </message>
    <message>
        <source>This answer is incomplete.</source>
        <translation>此回答不完整。</translation>
    </message>
    <message>
        <source>The agent could not resume the earlier conversation and started a new one: it does not remember the messages above.</source>
        <translation>智慧體無法恢復先前的對話，已開始新的對話：它不記得上面的訊息。</translation>
    </message>
    <message>
        <source>Part of this message could not be read.</source>
        <translation>此消息的部分內容無法讀取。</translation>
    </message>
    <message>
        <source>Forked from another session before one of its messages: these messages were copied, and the agent gets them as context with your next message.</source>
        <translation>從另一個會話的某則訊息之前分叉而來：這些訊息是複製的，代理會在你的下一則訊息中獲得它們作為上下文。</translation>
    </message>
</context>
<context>
    <name>MessageView</name>
    <message>
        <source>No messages yet. Say hello!</source>
        <translation>還沒有消息，打個招呼吧！</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <source>↓ Jump to latest</source>
        <translation>↓ 跳到最新</translation>
    </message>
    <message>
        <source>Scroll to the newest message (Ctrl+End)</source>
        <translation>捲動到最新訊息（Ctrl+End）</translation>
    </message>
</context>
<context>
    <name>ProvidersDialog</name>
    <message>
        <source>Providers</source>
        <translation>服務商</translation>
    </message>
</context>
<context>
    <name>ProvidersPanel</name>
    <message>
        <source>Add</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>Custom (OpenAI-compatible)</source>
        <translation>自訂（相容 OpenAI）</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>刪除</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名稱</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>類型</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>介面位址</translation>
    </message>
    <message>
        <source>Enabled (its models can be picked)</source>
        <translation>啟用（可選擇其模型）</translation>
    </message>
    <message>
        <source>Also serves the Anthropic Messages API (usable by Claude Code)</source>
        <translation>同時提供 Anthropic Messages API（可供 Claude Code 使用）</translation>
    </message>
    <message>
        <source>Save key</source>
        <translation>儲存金鑰</translation>
    </message>
    <message>
        <source>Remove key</source>
        <translation>移除金鑰</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 金鑰</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Model id, e.g. gpt-4o</source>
        <translation>模型 ID，例如 gpt-4o</translation>
    </message>
    <message>
        <source>Add model</source>
        <translation>新增模型</translation>
    </message>
    <message>
        <source>Remove model</source>
        <translation>移除模型</translation>
    </message>
    <message>
        <source>OpenAI-compatible</source>
        <translation>相容 OpenAI</translation>
    </message>
    <message>
        <source>%1 (off)</source>
        <translation>%1（已關閉）</translation>
    </message>
    <message>
        <source>New provider</source>
        <translation>新服務商</translation>
    </message>
    <message>
        <source>Delete provider</source>
        <translation>刪除服務商</translation>
    </message>
    <message>
        <source>Delete %1 with its models and API key?</source>
        <translation>刪除 %1 及其模型與 API 金鑰嗎？</translation>
    </message>
    <message>
        <source>Keys cannot be stored until a keyring is available (see above).</source>
        <translation>在鑰匙圈可用之前無法儲存金鑰（見上方說明）。</translation>
    </message>
    <message>
        <source>A key is stored in the system keyring.</source>
        <translation>已有金鑰儲存在系統鑰匙圈中。</translation>
    </message>
    <message>
        <source>No key needed for a server on this computer.</source>
        <translation>本機上的服務不需要金鑰。</translation>
    </message>
    <message>
        <source>No key stored. Chats need one; Claude Code agents use your own Claude Code login.</source>
        <translation>未儲存金鑰。對話需要金鑰；Claude Code 智慧體會使用你自己的 Claude Code 登入。</translation>
    </message>
    <message>
        <source>No key stored.</source>
        <translation>未儲存金鑰。</translation>
    </message>
    <message>
        <source>Replace the stored key</source>
        <translation>取代已儲存的金鑰</translation>
    </message>
    <message>
        <source>Paste the API key</source>
        <translation>貼上 API 金鑰</translation>
    </message>
    <message>
        <source>Prices…</source>
        <translation>價格…</translation>
    </message>
</context>
<context>
    <name>QueueDock</name>
    <message>
        <source>Resume queue</source>
        <translation>恢覆隊列</translation>
    </message>
    <message>
        <source>The queue is paused after a stop or an error.</source>
        <translation>因停止或出錯，隊列已暫停。</translation>
    </message>
    <message numerus="yes">
        <source>Queued for the next turn (%n)</source>
        <translation>
            <numerusform>排隊等待下一輪（%n）</numerusform>
        </translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>編輯</translation>
    </message>
    <message>
        <source>Edit this message</source>
        <translation>編輯此消息</translation>
    </message>
    <message>
        <source>Steer now</source>
        <translation>立即引導</translation>
    </message>
    <message>
        <source>Inject into the running turn</source>
        <translation>插入正在進行的回合</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Edit queued message</source>
        <translation>編輯排隊消息</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
</context>
<context>
    <name>ReasoningBlock</name>
    <message>
        <source>Reasoning</source>
        <translation>推理過程</translation>
    </message>
</context>
<context>
    <name>SessionList</name>
    <message>
        <source>Agents</source>
        <translation>智慧體</translation>
    </message>
    <message>
        <source>Untitled agent</source>
        <translation>未命名智慧體</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>新建會話</translation>
    </message>
    <message>
        <source>Chats</source>
        <translation>對話</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>新建對話</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打開</translation>
    </message>
    <message>
        <source>Open in new window</source>
        <translation>在新視窗中打開</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>刪除</translation>
    </message>
    <message>
        <source>Edit agent…</source>
        <translation>編輯智慧體…</translation>
    </message>
    <message>
        <source>New agent…</source>
        <translation>新建智慧體…</translation>
    </message>
    <message>
        <source>New session in its own worktree</source>
        <translation>在獨立工作樹中新建會話</translation>
    </message>
    <message>
        <source>Delete agent…</source>
        <translation>刪除智慧體…</translation>
    </message>
    <message>
        <source>Waiting for your approval inside: %1</source>
        <translation>其中等待你批准的：%1</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>設置</translation>
    </message>
    <message>
        <source>Follow system</source>
        <translation>跟隨系統</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>語言</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>淺色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>主題</translation>
    </message>
    <message>
        <source>Keep replying when all windows are closed</source>
        <translation>關閉所有視窗後繼續回覆</translation>
    </message>
    <message>
        <source>Stop replies nobody is watching</source>
        <translation>無人查看時停止回覆</translation>
    </message>
    <message>
        <source>Background</source>
        <translation>後台</translation>
    </message>
    <message>
        <source>General</source>
        <translation>一般</translation>
    </message>
    <message>
        <source>Providers</source>
        <translation>服務商</translation>
    </message>
    <message>
        <source>API gateway</source>
        <translation>API 閘道</translation>
    </message>
    <message>
        <source>Stop replying when all windows are closed</source>
        <translation>關閉所有視窗後停止回覆</translation>
    </message>
    <message>
        <source>Backups</source>
        <translation>備份</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP 伺服器</translation>
    </message>
    <message>
        <source>Skills</source>
        <translation>技能</translation>
    </message>
    <message>
        <source>Stop after %1 minutes, keeping the reply so far</source>
        <translation>%1 分鐘後停止，保留已有回覆</translation>
    </message>
    <message>
        <source>Stop after an hour, keeping the reply so far</source>
        <translation>1 小時後停止，保留已有回覆</translation>
    </message>
    <message>
        <source>Stop after %1 hours, keeping the reply so far</source>
        <translation>%1 小時後停止，保留已有回覆</translation>
    </message>
    <message>
        <source>Stop after %1 seconds, keeping the reply so far</source>
        <translation>%1 秒後停止，保留已有回覆</translation>
    </message>
    <message>
        <source>Wait until I answer</source>
        <translation>一直等我答覆</translation>
    </message>
    <message>
        <source>Approval with no window open</source>
        <translation>沒有開啟視窗時的批准</translation>
    </message>
    <message>
        <source>Notify me when a reply is ready while I look elsewhere</source>
        <translation>我在看別處時，回覆完成後通知我</translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation>通知</translation>
    </message>
</context>
<context>
    <name>Splash</name>
    <message>
        <source>Cherry Desktop</source>
        <translation>Cherry Desktop</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在啟動…</translation>
    </message>
</context>
<context>
    <name>StatusBadge</name>
    <message>
        <source>Replying…</source>
        <translation>回覆中…</translation>
    </message>
    <message>
        <source>Approval</source>
        <translation>待核准</translation>
    </message>
    <message>
        <source>Waiting for your approval</source>
        <translation>等待你的核准</translation>
    </message>
    <message>
        <source>The last reply failed</source>
        <translation>上一次回覆失敗</translation>
    </message>
    <message>
        <source>New reply</source>
        <translation>新回覆</translation>
    </message>
</context>
<context>
    <name>ToolCard</name>
    <message>
        <source>preparing</source>
        <translation>准備中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>運行中</translation>
    </message>
    <message>
        <source>waiting for approval</source>
        <translation>等待核准</translation>
    </message>
    <message>
        <source>approved</source>
        <translation>已核准</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>已拒絕</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>錯誤：%1</translation>
    </message>
    <message>
        <source>Denied by the user</source>
        <translation>已被用戶拒絕</translation>
    </message>
    <message>
        <source>not run</source>
        <translation>未執行</translation>
    </message>
    <message>
        <source>Not run: the turn ended before it was answered</source>
        <translation>未執行：本輪在獲得核准前已結束</translation>
    </message>
</context>
<context>
    <name>UiController</name>
    <message>
        <source>Open window</source>
        <translation>打開視窗</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>Cherry Desktop</source>
        <translation>Cherry Desktop</translation>
    </message>
    <message>
        <source>The reply is ready.</source>
        <translation>回覆已完成。</translation>
    </message>
    <message>
        <source>Hi! What can you do in this workspace?</source>
        <translation>你好！你能在這個工作區裡做什麼？</translation>
    </message>
    <message>
        <source>The API gateway could not start. See Settings, API gateway.</source>
        <translation>API 閘道無法啟動。請查看「設定 › API 閘道」。</translation>
    </message>
    <message>
        <source>The API gateway is on. Send your message again.</source>
        <translation>API 閘道已開啟。請重新傳送訊息。</translation>
    </message>
</context>
<context>
    <name>UsageFooter</name>
    <message>
        <source>%1 in · %2 out tokens</source>
        <translation>輸入 %1 · 輸出 %2 token</translation>
    </message>
    <message>
        <source>first token %1 s</source>
        <translation>首 token %1 秒</translation>
    </message>
    <message>
        <source>%1 s total</source>
        <translation>共 %1 秒</translation>
    </message>
    <message>
        <source>%1 cache reads</source>
        <translation>%1 快取讀取</translation>
    </message>
</context>
<context>
    <name>StorageFaultText</name>
    <message>
        <source>Cherry Desktop cannot use its data</source>
        <translation>Cherry Desktop 無法使用其資料</translation>
    </message>
    <message>
        <source>the data folder</source>
        <translation>資料夾</translation>
    </message>
    <message>
        <source>%1 cannot be written (a read-only folder or disk, or missing permissions). Make it writable, then start again.</source>
        <translation>%1 無法寫入（唯讀的資料夾或磁碟，或缺少權限）。請使其可寫，然後重新啟動。</translation>
    </message>
    <message>
        <source>The disk holding %1 is full. Free some space, then start again.</source>
        <translation>存放 %1 的磁碟已滿。請釋放一些空間，然後重新啟動。</translation>
    </message>
    <message>
        <source>The database %1 is damaged. It was left as it is: restore it from a backup, or move it away to start with an empty one.</source>
        <translation>資料庫 %1 已損壞。它保持原樣未動：請從備份還原，或將其移走以使用空資料庫啟動。</translation>
    </message>
    <message>
        <source>%1 is not a Cherry Desktop database (it is truncated or another kind of file). It was left as it is: move it away or restore it from a backup.</source>
        <translation>%1 不是 Cherry Desktop 資料庫（檔案被截斷或是其他類型的檔案）。它保持原樣未動：請將其移走或從備份還原。</translation>
    </message>
    <message>
        <source>The database %1 was written by a newer Cherry Desktop. Update the app to open it; it was left as it is.</source>
        <translation>資料庫 %1 由較新版本的 Cherry Desktop 寫入。請更新應用程式後再開啟；它保持原樣未動。</translation>
    </message>
    <message>
        <source>%1 cannot be opened. Check that it exists and that you may read and write it.</source>
        <translation>%1 無法開啟。請檢查它是否存在，以及你是否有讀寫權限。</translation>
    </message>
</context>
<context>
    <name>CodeBlock</name>
    <message>
        <source>code</source>
        <translation>程式碼</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>複製</translation>
    </message>
    <message>
        <source>Copy the code</source>
        <translation>複製程式碼</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>已複製</translation>
    </message>
</context>
<context>
    <name>FoldingText</name>
    <message>
        <source>Show all %1 lines</source>
        <translation>顯示全部 %1 行</translation>
    </message>
    <message>
        <source>Show less</source>
        <translation>收合</translation>
    </message>
</context>
<context>
    <name>MessageActions</name>
    <message>
        <source>Copy</source>
        <translation>複製</translation>
    </message>
    <message>
        <source>Copy as Markdown (%1)</source>
        <translation>複製為 Markdown（%1）</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>編輯</translation>
    </message>
    <message>
        <source>Edit and send again (%1 in an empty message box)</source>
        <translation>編輯並重新傳送（在空白輸入框中按 %1）</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>重新產生</translation>
    </message>
    <message>
        <source>Another answer (%1)</source>
        <translation>換一個回答（%1）</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>刪除</translation>
    </message>
    <message>
        <source>Delete this message (you can undo it)</source>
        <translation>刪除這則訊息（可復原）</translation>
    </message>
    <message>
        <source>Copy as Markdown</source>
        <translation>複製為 Markdown</translation>
    </message>
    <message>
        <source>Edit and resend</source>
        <translation>編輯並重新傳送</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>變更</translation>
    </message>
    <message>
        <source>Restore files</source>
        <translation>還原檔案</translation>
    </message>
    <message>
        <source>Restore files to before this message</source>
        <translation>將檔案還原到此訊息之前</translation>
    </message>
    <message>
        <source>Restore files to before this message (shows what changes first)</source>
        <translation>將檔案還原到此訊息之前（先顯示將變更的內容）</translation>
    </message>
    <message>
        <source>The files this turn added, modified or deleted</source>
        <translation>本輪新增、修改或刪除的檔案</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>已複製</translation>
    </message>
    <message>
        <source>Select all</source>
        <translation>全選</translation>
    </message>
</context>
<context>
    <name>UndoBar</name>
    <message>
        <source>Message deleted</source>
        <translation>訊息已刪除</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>復原</translation>
    </message>
</context>
<context>
    <name>Export</name>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Conversation</source>
        <translation>對話</translation>
    </message>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助理</translation>
    </message>
    <message>
        <source>steer</source>
        <translation>引導</translation>
    </message>
    <message>
        <source>Export to Markdown</source>
        <translation>匯出為 Markdown</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown（*.md）</translation>
    </message>
    <message>
        <source>Could not export: %1</source>
        <translation>無法匯出：%1</translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation>已匯出至 %1</translation>
    </message>
</context>
<context>
    <name>SearchPanel</name>
    <message>
        <source>Search chats and sessions (Ctrl+K)</source>
        <translation>搜尋聊天和工作階段 (Ctrl+K)</translation>
    </message>
    <message>
        <source>No results</source>
        <translation>沒有結果</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
</context>
<context>
    <name>SessionHeader</name>
    <message>
        <source>Installing %1 %2 for its first use (about 15 s)…</source>
        <translation>首次使用，正在安裝 %1 %2（約 15 秒）…</translation>
    </message>
    <message>
        <source>Still always allowed: %1</source>
        <translation>仍一律允許：%1</translation>
    </message>
    <message>
        <source>Permission mode of this agent, applied to the running session</source>
        <translation>此智慧體的權限模式，會套用到正在執行的工作階段</translation>
    </message>
    <message>
        <source>Agent: %1</source>
        <translation>智慧體：%1</translation>
    </message>
    <message>
        <source>Untitled agent</source>
        <translation>未命名智慧體</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation>模型：%1</translation>
    </message>
    <message>
        <source>the agent's default</source>
        <translation>智慧體預設模型</translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation>開啟 %1</translation>
    </message>
    <message>
        <source>Context %1%</source>
        <translation>上下文 %1%</translation>
    </message>
    <message>
        <source>%1 of %2 tokens of context used</source>
        <translation>已使用上下文 %1 / %2 個 token</translation>
    </message>
    <message>
        <source>Now: %1</source>
        <translation>目前：%1</translation>
    </message>
    <message>
        <source>Applies from the next turn</source>
        <translation>從下一輪開始生效</translation>
    </message>
    <message>
        <source>The running session refused the change; it applies from the next turn</source>
        <translation>正在執行的工作階段拒絕了此變更；將從下一輪開始生效</translation>
    </message>
    <message>
        <source>Todos %1/%2</source>
        <translation>待辦 %1/%2</translation>
    </message>
    <message>
        <source>Changes: %n file(s)</source>
        <translation>變更：%n 個檔案</translation>
    </message>
    <message>
        <source>Files changed in this session's folder since its first turn</source>
        <translation>自第一輪以來此工作階段資料夾中變更的檔案</translation>
    </message>
    <message>
        <source>Put back the files as they were before the last restore</source>
        <translation>將檔案放回上次還原之前的狀態</translation>
    </message>
    <message>
        <source>Undo restore</source>
        <translation>復原還原</translation>
    </message>
    <message>
        <source>Branch: %1</source>
        <translation>分支：%1</translation>
    </message>
    <message>
        <source>This session works in its own git worktree. Merge back with: %1</source>
        <translation>此工作階段在自己的 git 工作樹中工作。合併回去的指令：%1</translation>
    </message>
    <message>
        <source>No checkpoints: %1</source>
        <translation>沒有檢查點：%1</translation>
    </message>
</context>
<context>
    <name>ModelPricingDialog</name>
    <message>
        <source>Cache reads</source>
        <translation>快取讀取</translation>
    </message>
    <message>
        <source>Cache writes</source>
        <translation>快取寫入</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>輸入</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>輸出</translation>
    </message>
    <message>
        <source>Prices of %1</source>
        <translation>%1 的價格</translation>
    </message>
    <message>
        <source>USD per million tokens</source>
        <translation>每百萬 token 的美元價格</translation>
    </message>
</context>
<context>
    <name>UsageSummary</name>
    <message>
        <source>%1 cache reads</source>
        <translation>%1 快取讀取</translation>
    </message>
    <message>
        <source>Total: %1 in · %2 out tokens</source>
        <translation>合計：輸入 %1 · 輸出 %2 token</translation>
    </message>
    <message>
        <source>no prices for some models</source>
        <translation>部分模型沒有價格</translation>
    </message>
    <message>
        <source>no price set for its model</source>
        <translation>其模型未設定價格</translation>
    </message>
    <message>
        <source>Prices are set per model: Providers ▸ Prices…</source>
        <translation>價格按模型設定：服務商 ▸ 價格…</translation>
    </message>
</context>
<context>
    <name>CompactionDivider</name>
    <message>
        <source>— Compacting the context failed: %1 —</source>
        <translation>— 壓縮上下文失敗：%1 —</translation>
    </message>
    <message>
        <source>— Compacting the conversation's context… —</source>
        <translation>— 正在壓縮對話上下文… —</translation>
    </message>
    <message>
        <source>— Earlier messages were compacted into a summary to free context —</source>
        <translation>— 較早的訊息已壓縮為摘要以釋放上下文 —</translation>
    </message>
    <message>
        <source>— The context was full: %1 tokens of earlier messages were compacted into a summary —</source>
        <translation>— 上下文已滿：較早的 %1 個 token 的訊息已壓縮為摘要 —</translation>
    </message>
    <message>
        <source>— As asked, %1 tokens of earlier messages were compacted into a summary —</source>
        <translation>— 依你的要求，較早的 %1 個 token 的訊息已壓縮為摘要 —</translation>
    </message>
    <message>
        <source>— %1 tokens of earlier messages were compacted into a summary to free context —</source>
        <translation>— 較早的 %1 個 token 的訊息已壓縮為摘要，以騰出上下文 —</translation>
    </message>
</context>
<context>
    <name>PlanCard</name>
    <message>
        <source>Plan</source>
        <translation>計畫</translation>
    </message>
</context>
<context>
    <name>TodoCard</name>
    <message>
        <source>Todo list · %1 of %2 done</source>
        <translation>待辦清單 · 已完成 %1/%2</translation>
    </message>
</context>
<context>
    <name>Translate</name>
    <message>
        <source>Choose a model for this chat (or a naming model in Settings) to translate.</source>
        <translation>請為此聊天選擇一個模型（或在設定中選擇命名模型）後再翻譯。</translation>
    </message>
    <message>
        <source>English</source>
        <translation>英語</translation>
    </message>
    <message>
        <source>This message has no text to translate.</source>
        <translation>此訊息沒有可翻譯的文字。</translation>
    </message>
    <message>
        <source>This message is already being translated.</source>
        <translation>此訊息正在翻譯中。</translation>
    </message>
    <message>
        <source>Translate to</source>
        <translation>翻譯為</translation>
    </message>
</context>
<context>
    <name>TranslationBlock</name>
    <message>
        <source>Translating to %1…</source>
        <translation>正在翻譯為%1…</translation>
    </message>
    <message>
        <source>Translation (%1)</source>
        <translation>譯文（%1）</translation>
    </message>
    <message>
        <source>Translation to %1 failed</source>
        <translation>翻譯為%1失敗</translation>
    </message>
    <message>
        <source>Translation to %1 stopped</source>
        <translation>翻譯為%1已停止</translation>
    </message>
</context>
<context>
    <name>AttachmentButton</name>
    <message>
        <source>%1 (missing)</source>
        <translation>%1（已遺失）</translation>
    </message>
</context>
<context>
    <name>AttachmentTray</name>
    <message>
        <source>Attach files</source>
        <translation>新增附件</translation>
    </message>
    <message>
        <source>Images and text files (*.png *.jpg *.jpeg *.webp *.gif *.txt *.md *.json *.csv *.py *.log);;All files (*)</source>
        <translation>圖片和文字檔案 (*.png *.jpg *.jpeg *.webp *.gif *.txt *.md *.json *.csv *.py *.log);;所有檔案 (*)</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>移除 %1</translation>
    </message>
</context>
<context>
    <name>AttachmentViewer</name>
    <message>
        <source>Close</source>
        <translation>關閉</translation>
    </message>
    <message>
        <source>Open with the system app</source>
        <translation>以系統應用程式開啟</translation>
    </message>
</context>
<context>
    <name>AttachmentWords</name>
    <message>
        <source>%1 cannot be attached: only PNG, JPEG, WebP and GIF images and text files can.</source>
        <translation>無法附加 %1：只能附加 PNG、JPEG、WebP、GIF 圖片和文字檔案。</translation>
    </message>
    <message>
        <source>%1 could not be attached.</source>
        <translation>無法附加 %1。</translation>
    </message>
    <message>
        <source>%1 could not be read.</source>
        <translation>無法讀取 %1。</translation>
    </message>
    <message>
        <source>%1 could not be saved with the message (is the disk full?). Nothing was sent.</source>
        <translation>無法隨訊息儲存 %1（磁碟已滿？）。訊息未傳送。</translation>
    </message>
    <message>
        <source>%1 is empty.</source>
        <translation>%1 是空檔案。</translation>
    </message>
    <message>
        <source>%1 is too large to attach (the limit is %2).</source>
        <translation>%1 太大，無法附加（上限為 %2）。</translation>
    </message>
    <message>
        <source>A message can carry at most %2 files; %1 was not added.</source>
        <translation>一則訊息最多附帶 %2 個檔案；未新增 %1。</translation>
    </message>
    <message>
        <source>Files cannot be attached in this conversation.</source>
        <translation>此對話無法附加檔案。</translation>
    </message>
    <message>
        <source>The attached file %1 is no longer available.</source>
        <translation>附件 %1 已不存在。</translation>
    </message>
    <message>
        <source>The file</source>
        <translation>該檔案</translation>
    </message>
</context>
<context>
    <name>AlwaysAllowedButton</name>
    <message>
        <source>Tools allowed without asking in this session; click to ask again</source>
        <translation>本工作階段中無需詢問即可執行的工具；點擊可改回每次詢問</translation>
    </message>
    <message>
        <source>Always allowed: %1</source>
        <translation>一律允許：%1</translation>
    </message>
    <message numerus="yes">
        <source>Always allowed (%n)</source>
        <translation>
            <numerusform>一律允許（%n）</numerusform>
        </translation>
    </message>
    <message>
        <source>Ask again for %1</source>
        <translation>%1 改回每次詢問</translation>
    </message>
    <message>
        <source>Ask again for every tool</source>
        <translation>所有工具改回每次詢問</translation>
    </message>
</context>
<context>
    <name>AnswerColumn</name>
    <message>
        <source>✓ Continues from here</source>
        <translation>✓ 從這裡繼續</translation>
    </message>
    <message>
        <source>The next message continues the conversation from this answer</source>
        <translation>下一則訊息將從此回答繼續對話</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop this model's answer</source>
        <translation>停止此模型的回答</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>重新產生</translation>
    </message>
    <message>
        <source>Ask this model again (the other answers stay)</source>
        <translation>再次詢問此模型（其他回答保留）</translation>
    </message>
    <message>
        <source>Use this answer</source>
        <translation>使用此回答</translation>
    </message>
    <message>
        <source>Continue the conversation from this answer</source>
        <translation>從此回答繼續對話</translation>
    </message>
    <message>
        <source>Only a finished answer can be used</source>
        <translation>只能使用已完成的回答</translation>
    </message>
</context>
<context>
    <name>MultiModel</name>
    <message>
        <source>Only an answer that finished can be used. Regenerate it, or use another.</source>
        <translation>只能使用已完成的回答。請重新產生，或使用其他回答。</translation>
    </message>
    <message>
        <source>The conversation already went on from another answer of this turn.</source>
        <translation>對話已從本輪的另一個回答繼續。</translation>
    </message>
    <message>
        <source>This answer cannot be used to continue the conversation.</source>
        <translation>此回答無法用於繼續對話。</translation>
    </message>
</context>
<context>
    <name>ErrorWords</name>
    <message>
        <source>The model's service refused the API key. Check the key in Providers.</source>
        <translation>模型服務拒絕了 API 金鑰。請在「服務商」中檢查金鑰。</translation>
    </message>
    <message>
        <source>The model's service is limiting requests right now. Wait a moment, then try again.</source>
        <translation>模型服務目前正在限制請求。請稍候片刻再試。</translation>
    </message>
    <message>
        <source>The model's service is overloaded. Try again in a little while.</source>
        <translation>模型服務負載過高。請稍後再試。</translation>
    </message>
    <message>
        <source>The model's service had a problem of its own. Try again later.</source>
        <translation>模型服務本身出現了問題。請稍後再試。</translation>
    </message>
    <message>
        <source>The model's service refused the request.</source>
        <translation>模型服務拒絕了此請求。</translation>
    </message>
    <message>
        <source>The model's service reported an error.</source>
        <translation>模型服務回報了一個錯誤。</translation>
    </message>
    <message>
        <source>The model's service could not be reached. Check the network connection and the provider's address.</source>
        <translation>無法連線到模型服務。請檢查網路連線與服務商的位址。</translation>
    </message>
    <message>
        <source>The model's service took too long to answer.</source>
        <translation>模型服務回應逾時。</translation>
    </message>
    <message>
        <source>The connection ended before the reply was complete.</source>
        <translation>回覆尚未完成，連線就已中斷。</translation>
    </message>
    <message>
        <source>The model's service sent a reply that could not be read.</source>
        <translation>模型服務傳回的回覆無法讀取。</translation>
    </message>
    <message>
        <source>The model of this chat is no longer available. Choose another one.</source>
        <translation>此對話的模型已無法使用。請選擇其他模型。</translation>
    </message>
    <message>
        <source>The provider of this model is turned off. Turn it on in Providers, or choose another model.</source>
        <translation>此模型的服務商已關閉。請在「服務商」中啟用它，或選擇其他模型。</translation>
    </message>
    <message>
        <source>This chat has no model yet. Choose one in the Model list above.</source>
        <translation>此對話還沒有模型。請在上方的「模型」清單中選擇一個。</translation>
    </message>
    <message>
        <source>The agent's process ended during the turn.</source>
        <translation>智慧體程序在本輪進行中結束了。</translation>
    </message>
    <message>
        <source>The agent reported an error.</source>
        <translation>智慧體回報了一個錯誤。</translation>
    </message>
    <message>
        <source>The agent could not be started.</source>
        <translation>無法啟動智慧體。</translation>
    </message>
    <message>
        <source>This session cannot run: its agent, workspace or model is not usable.</source>
        <translation>此工作階段無法執行：它的智慧體、工作區或模型無法使用。</translation>
    </message>
    <message>
        <source>The session was closed during the turn.</source>
        <translation>工作階段在本輪進行中被關閉。</translation>
    </message>
    <message>
        <source>The queued message could not be started.</source>
        <translation>排隊的訊息無法開始。</translation>
    </message>
    <message>
        <source>The reply could not be saved, so the turn did not start.</source>
        <translation>無法儲存回覆，因此本輪沒有開始。</translation>
    </message>
    <message>
        <source>The reply stopped: the model sent nothing for too long.</source>
        <translation>回覆已停止：模型太久沒有傳送任何內容。</translation>
    </message>
    <message>
        <source>The reply could not be saved.</source>
        <translation>無法儲存回覆。</translation>
    </message>
    <message>
        <source>The reply was interrupted when the app stopped.</source>
        <translation>應用程式停止時回覆被中斷。</translation>
    </message>
    <message>
        <source>The turn could not continue.</source>
        <translation>本輪無法繼續。</translation>
    </message>
    <message>
        <source>A backup or restore is in progress. Send again when it is done.</source>
        <translation>正在備份或還原。完成後請重新傳送。</translation>
    </message>
    <message>
        <source>This conversation no longer exists.</source>
        <translation>此對話已不存在。</translation>
    </message>
    <message>
        <source>That message no longer exists.</source>
        <translation>該訊息已不存在。</translation>
    </message>
    <message>
        <source>Only a reply of the model can be regenerated.</source>
        <translation>只有模型的回覆可以重新產生。</translation>
    </message>
    <message>
        <source>The message is empty.</source>
        <translation>訊息為空。</translation>
    </message>
    <message>
        <source>Wait until the current reply has finished.</source>
        <translation>請等待目前的回覆完成。</translation>
    </message>
    <message>
        <source>The same model was asked twice.</source>
        <translation>同一個模型被請求了兩次。</translation>
    </message>
    <message>
        <source>This chat cannot do that.</source>
        <translation>此對話不支援該操作。</translation>
    </message>
    <message>
        <source>The reply failed.</source>
        <translation>回覆失敗。</translation>
    </message>
    <message>
        <source>This agent reaches its model through Cherry's API gateway, which is off. Turn it on in Settings, API gateway, then send again.</source>
        <translation>此智慧體透過 Cherry 的 API 閘道存取其模型，但閘道已關閉。請在「設定 › API 閘道」中開啟，然後重新傳送。</translation>
    </message>
    <message>
        <source>Turn on the API gateway</source>
        <translation>開啟 API 閘道</translation>
    </message>
    <message>
        <source>This agent was restored from a backup and stays off until you allow it: Settings, Backups, Allow restored agents.</source>
        <translation>此代理是從備份還原的，在你允許之前保持關閉：設定 &gt; 備份 &gt; 允許還原的代理。</translation>
    </message>
    <message>
        <source>Two of this agent's MCP tools have the same name, so none of them can be told apart. Turn one off in Settings, MCP servers, or untick a server in the agent's dialog.</source>
        <translation>此智慧體的兩個 MCP 工具同名，無法區分。請在「設置 › MCP 伺服器」中關閉其中一個，或在智慧體對話框中取消勾選某個伺服器。</translation>
    </message>
    <message>
        <source>The disk is full, so this could not be saved. Free some space, then try again; what you typed stays in the message box.</source>
        <translation>磁碟已滿，無法儲存。請釋放一些空間後再試一次；您輸入的內容仍保留在訊息框中。</translation>
    </message>
    <message>
        <source>The data folder cannot be written (a read-only disk or missing permissions), so this could not be saved. Make it writable, then try again.</source>
        <translation>資料夾無法寫入（磁碟為唯讀或缺少權限），因此無法儲存。請使其可寫入後再試一次。</translation>
    </message>
</context>
<context>
    <name>GatewaySettingsPanel</name>
    <message>
        <source>Serves Cherry's models and agents as a local API (Anthropic Messages, OpenAI chat completions, agents and topics over SSE) on 127.0.0.1 only. Claude Code agents on models that are not Anthropic-compatible run through it.</source>
        <translation>以本機 API 的形式提供 Cherry 的模型與智慧體（Anthropic Messages、OpenAI 聊天補全、透過 SSE 的智慧體與話題），僅監聽 127.0.0.1。使用非 Anthropic 相容模型的 Claude Code 智慧體透過它執行。</translation>
    </message>
    <message>
        <source>Run the API gateway</source>
        <translation>執行 API 閘道</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>連接埠</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>狀態</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>基礎 URL</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>顯示</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>重新產生</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 金鑰</translation>
    </message>
    <message>
        <source>OpenAI SDK (Python)</source>
        <translation>OpenAI SDK（Python）</translation>
    </message>
    <message>
        <source>Example</source>
        <translation>範例</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>複製</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>隱藏</translation>
    </message>
    <message>
        <source>Running. Requests need the API key below.</source>
        <translation>執行中。請求需要附上下方的 API 金鑰。</translation>
    </message>
    <message>
        <source>Off.</source>
        <translation>已關閉。</translation>
    </message>
    <message>
        <source>Port %1 on 127.0.0.1 is in use by another program: choose another port.</source>
        <translation>127.0.0.1 上的連接埠 %1 已被其他程式佔用：請選擇其他連接埠。</translation>
    </message>
    <message>
        <source>No keyring is available to keep the API key in: the gateway cannot run.</source>
        <translation>沒有可用來保存 API 金鑰的鑰匙圈：閘道無法執行。</translation>
    </message>
</context>
<context>
    <name>FetchedModelsDialog</name>
    <message>
        <source>Add models</source>
        <translation>新增模型</translation>
    </message>
    <message>
        <source>Add selected</source>
        <translation>新增所選</translation>
    </message>
    <message>
        <source>Filter</source>
        <translation>篩選</translation>
    </message>
</context>
<context>
    <name>ProviderCheckRow</name>
    <message>
        <source>Asking the provider for its models…</source>
        <translation>正在向服務商取得模型清單…</translation>
    </message>
    <message>
        <source>Connected. Models the provider lists: %1.</source>
        <translation>已連線。服務商列出的模型：%1 個。</translation>
    </message>
    <message>
        <source>Connected: %1 answered.</source>
        <translation>已連線：%1 已回覆。</translation>
    </message>
    <message>
        <source>Fetch models…</source>
        <translation>取得模型…</translation>
    </message>
    <message>
        <source>Models added: %1.</source>
        <translation>已新增模型：%1 個。</translation>
    </message>
    <message>
        <source>Models the provider lists: %1.</source>
        <translation>服務商列出的模型：%1 個。</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>測試連線</translation>
    </message>
    <message>
        <source>Testing the connection…</source>
        <translation>正在測試連線…</translation>
    </message>
    <message>
        <source>This provider does not list its models: add them by id below.</source>
        <translation>此服務商不提供模型清單：請在下方依 ID 新增模型。</translation>
    </message>
</context>
<context>
    <name>BackupDialog</name>
    <message>
        <source>API keys are not in the backup: they stay in this computer's keyring. After restoring on another computer, enter them again.</source>
        <translation>備份中不包含 API 金鑰：它們保存在這台電腦的鑰匙圈中。在另一台電腦上還原後，請重新輸入。</translation>
    </message>
    <message>
        <source>Another backup or restore is running.</source>
        <translation>另一個備份或還原正在進行。</translation>
    </message>
    <message>
        <source>Back up</source>
        <translation>備份</translation>
    </message>
    <message>
        <source>Back up to</source>
        <translation>備份到</translation>
    </message>
    <message>
        <source>Backup written: %1 (%2).</source>
        <translation>備份已寫入：%1（%2）。</translation>
    </message>
    <message>
        <source>Cancelled. Nothing was written.</source>
        <translation>已取消，未寫入任何內容。</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Checking the backup…</source>
        <translation>正在檢查備份…</translation>
    </message>
    <message>
        <source>Cherry Desktop backup (*.cherry-backup);;All files (*)</source>
        <translation>Cherry Desktop 備份 (*.cherry-backup);;所有檔案 (*)</translation>
    </message>
    <message>
        <source>Cherry Desktop is running on this data folder.</source>
        <translation>Cherry Desktop 正在使用此資料夾。</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>關閉</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Enter the API keys again for: %1</source>
        <translation>請重新輸入以下服務商的 API 金鑰：%1</translation>
    </message>
    <message>
        <source>Not done</source>
        <translation>未完成</translation>
    </message>
    <message>
        <source>Pausing new writes…</source>
        <translation>正在暫停新的寫入…</translation>
    </message>
    <message>
        <source>Quit now</source>
        <translation>立即結束</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>還原</translation>
    </message>
    <message>
        <source>Restore from</source>
        <translation>從以下檔案還原</translation>
    </message>
    <message>
        <source>Restore from a backup?</source>
        <translation>要從備份還原嗎？</translation>
    </message>
    <message>
        <source>Restore not done</source>
        <translation>還原未完成</translation>
    </message>
    <message>
        <source>Restored</source>
        <translation>已還原</translation>
    </message>
    <message>
        <source>Restoring %1 replaces all chats, agents and sessions with the backup's when Cherry Desktop starts again. The current data is kept aside until then.</source>
        <translation>還原 %1 會在 Cherry Desktop 下次啟動時用備份中的內容取代所有對話、代理和工作階段。在此之前，目前的資料會被保留。</translation>
    </message>
    <message>
        <source>Some work was still being saved and did not finish in time. Nothing was written; try again in a moment.</source>
        <translation>仍有工作在儲存中，未能及時完成。未寫入任何內容，請稍後再試。</translation>
    </message>
    <message>
        <source>Still running: %1</source>
        <translation>仍在執行：%1</translation>
    </message>
    <message>
        <source>Taking a snapshot of the database…</source>
        <translation>正在建立資料庫快照…</translation>
    </message>
    <message>
        <source>The backup could not be put in place, so your previous data was kept.</source>
        <translation>無法套用備份，已保留你先前的資料。</translation>
    </message>
    <message>
        <source>The backup is verified and ready. Quit and start Cherry Desktop again to finish the restore; until then you keep working on the current data.</source>
        <translation>備份已驗證並準備就緒。結束並重新啟動 Cherry Desktop 以完成還原；在此之前你仍在使用目前的資料。</translation>
    </message>
    <message>
        <source>The disk is full. Free some space or choose another folder.</source>
        <translation>磁碟已滿。請釋放空間或選擇其他資料夾。</translation>
    </message>
    <message>
        <source>The file or folder cannot be read.</source>
        <translation>無法讀取該檔案或資料夾。</translation>
    </message>
    <message>
        <source>Then enter the API keys again for: %1</source>
        <translation>然後請重新輸入以下服務商的 API 金鑰：%1</translation>
    </message>
    <message>
        <source>This backup is damaged and cannot be restored.</source>
        <translation>此備份已損壞，無法還原。</translation>
    </message>
    <message>
        <source>This backup is incomplete: the file was cut short.</source>
        <translation>此備份不完整：檔案被截斷了。</translation>
    </message>
    <message>
        <source>This backup was made by a newer Cherry Desktop. Update the app to restore it.</source>
        <translation>此備份由較新版本的 Cherry Desktop 建立。請更新應用程式後再還原。</translation>
    </message>
    <message>
        <source>This file is not a Cherry Desktop backup.</source>
        <translation>此檔案不是 Cherry Desktop 備份。</translation>
    </message>
    <message>
        <source>This folder cannot be written. Choose another folder.</source>
        <translation>無法寫入此資料夾。請選擇其他資料夾。</translation>
    </message>
    <message>
        <source>Writing the backup…</source>
        <translation>正在寫入備份…</translation>
    </message>
    <message>
        <source>Your data was restored from the backup. The replaced data is kept until the next start.</source>
        <translation>你的資料已從備份還原。被取代的資料會保留到下次啟動。</translation>
    </message>
    <message>
        <source>The restored agents stay off until you allow them in Settings, Backups: %1</source>
        <translation>還原的代理在你於「設定 &gt; 備份」中允許之前保持關閉：%1</translation>
    </message>
    <message>
        <source>Choose a place outside Cherry Desktop's own data: this one would overwrite it, or be backed up itself.</source>
        <translation>請選擇 Cherry Desktop 自身資料之外的位置：此處會覆蓋資料，或者會把備份本身也備份進去。</translation>
    </message>
</context>
<context>
    <name>BackupSettingsPanel</name>
    <message>
        <source>A folder on another disk is best</source>
        <translation>最好選擇另一顆磁碟上的資料夾</translation>
    </message>
    <message>
        <source>API keys are not in backups: they stay in this computer's keyring.</source>
        <translation>備份中不包含 API 金鑰：它們保存在這台電腦的鑰匙圈中。</translation>
    </message>
    <message>
        <source>Back up automatically once a day</source>
        <translation>每天自動備份一次</translation>
    </message>
    <message>
        <source>Choose a folder for automatic backups.</source>
        <translation>請為自動備份選擇一個資料夾。</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>選擇…</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>資料夾</translation>
    </message>
    <message>
        <source>Folder for automatic backups</source>
        <translation>自動備份資料夾</translation>
    </message>
    <message>
        <source>Keep the newest</source>
        <translation>保留最新的</translation>
    </message>
    <message>
        <source>Last backup: %1</source>
        <translation>上次備份：%1</translation>
    </message>
    <message>
        <source>never</source>
        <translation>從未</translation>
    </message>
    <message>
        <source>Agents restored from a backup run commands in your workspaces, so they stay off until you allow them: %1</source>
        <translation>從備份還原的代理會在你的工作區中執行指令，因此在你允許之前它們保持關閉：%1</translation>
    </message>
    <message>
        <source>Allow restored agents</source>
        <translation>允許還原的代理</translation>
    </message>
    <message>
        <source>Allowed: %1 agent(s).</source>
        <translation>已允許：%1 個代理。</translation>
    </message>
</context>
<context>
    <name>ChangesDialog</name>
    <message>
        <source>%n file(s) changed</source>
        <translation>已變更 %n 個檔案</translation>
    </message>
    <message>
        <source>(no textual difference)</source>
        <translation>（沒有文字差異）</translation>
    </message>
    <message>
        <source>No files changed.</source>
        <translation>沒有檔案被變更。</translation>
    </message>
    <message>
        <source>Too large to checkpoint (not shown, never restored): %1</source>
        <translation>檔案過大，未建立檢查點（不顯示，也不會還原）：%1</translation>
    </message>
    <message>
        <source>the turn is still running: shown against the folder now</source>
        <translation>該輪仍在執行：與資料夾目前狀態比較</translation>
    </message>
    <message>
        <source>only files inside the session's folder are tracked</source>
        <translation>只追蹤工作階段資料夾內的檔案</translation>
    </message>
</context>
<context>
    <name>CheckpointActions</name>
    <message>
        <source>Changes in this session</source>
        <translation>本工作階段的變更</translation>
    </message>
    <message>
        <source>Changes of this turn</source>
        <translation>本輪的變更</translation>
    </message>
    <message>
        <source>Restored %n file(s) to before the message. The conversation is unchanged.</source>
        <translation>已將 %n 個檔案還原到該訊息之前。對話未改變。</translation>
    </message>
    <message>
        <source>The files are back as they were before the restore.</source>
        <translation>檔案已回到還原之前的狀態。</translation>
    </message>
    <message>
        <source>Forked session</source>
        <translation>分叉的會話</translation>
    </message>
    <message>
        <source>Restored %n file(s). The conversation goes on in a new session from before the message; its agent gets the earlier messages as context.</source>
        <translation>已還原 %n 個檔案。對話從該訊息之前在新會話中繼續；其代理會獲得之前的訊息作為上下文。</translation>
    </message>
</context>
<context>
    <name>CheckpointWords</name>
    <message>
        <source>Checkpoints need git, and no git was found on this computer.</source>
        <translation>檢查點需要 git，但此電腦上找不到 git。</translation>
    </message>
    <message>
        <source>Files changed after the list was shown. Nothing was restored; look at the new list.</source>
        <translation>清單顯示後檔案又有變更。未還原任何內容；請查看新的清單。</translation>
    </message>
    <message>
        <source>Nothing was restored: a file that has no checkpoint is in the way (%1).</source>
        <translation>未還原任何內容：一個沒有檢查點的檔案擋住了路徑（%1）。</translation>
    </message>
    <message>
        <source>Something went wrong: %1</source>
        <translation>發生錯誤：%1</translation>
    </message>
    <message>
        <source>The agent is working: stop it or wait for the turn to end, then restore.</source>
        <translation>代理正在工作：請停止它或等待本輪結束後再還原。</translation>
    </message>
    <message>
        <source>The checkpoint of this message is no longer kept.</source>
        <translation>此訊息的檢查點已不再保留。</translation>
    </message>
    <message>
        <source>The session's folder cannot be written to (read-only): %1</source>
        <translation>工作階段的資料夾無法寫入（唯讀）：%1</translation>
    </message>
    <message>
        <source>The session's folder no longer exists: %1</source>
        <translation>工作階段的資料夾已不存在：%1</translation>
    </message>
    <message>
        <source>This folder has too many files for checkpoints (%1).</source>
        <translation>此資料夾檔案過多，無法建立檢查點（%1）。</translation>
    </message>
    <message>
        <source>This message has no checkpoint (it was sent before checkpoints, or its checkpoint was skipped).</source>
        <translation>此訊息沒有檢查點（它在檢查點功能之前傳送，或其檢查點被略過）。</translation>
    </message>
    <message>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>binary</source>
        <translation>二進位</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>刪除</translation>
    </message>
    <message>
        <source>git failed; nothing was changed: %1</source>
        <translation>git 失敗；未做任何變更：%1</translation>
    </message>
    <message>
        <source>git took too long; nothing was changed.</source>
        <translation>git 耗時過長；未做任何變更。</translation>
    </message>
    <message>
        <source>modified</source>
        <translation>修改</translation>
    </message>
    <message>
        <source>A session gets its own worktree only in a git repository with at least one commit: %1</source>
        <translation>只有在至少有一次提交的 git 儲存庫中，工作階段才能擁有自己的工作樹：%1</translation>
    </message>
    <message>
        <source>git could not do it: %1</source>
        <translation>git 無法完成：%1</translation>
    </message>
</context>
<context>
    <name>RewindDialog</name>
    <message>
        <source>%n file(s) will be put back as they were before this message:</source>
        <translation>%n 個檔案將還原為此訊息之前的狀態：</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Changed by you (not by the agent) since then: %1</source>
        <translation>此後由你（而非代理）變更：%1</translation>
    </message>
    <message>
        <source>Restore files</source>
        <translation>還原檔案</translation>
    </message>
    <message>
        <source>Restore files to before this message</source>
        <translation>將檔案還原到此訊息之前</translation>
    </message>
    <message>
        <source>The folder is already as it was before this message: nothing to restore.</source>
        <translation>資料夾已是此訊息之前的狀態：無需還原。</translation>
    </message>
    <message>
        <source>The folder is checkpointed first: you can undo the restore. The conversation stays as it is.</source>
        <translation>會先為資料夾建立檢查點：你可以復原這次還原。對話保持不變。</translation>
    </message>
    <message>
        <source>Too large to keep a copy of, so the undo cannot bring them back: %1</source>
        <translation>檔案過大無法保留副本，復原無法找回：%1</translation>
    </message>
    <message>
        <source>you changed it since: your edit will be replaced</source>
        <translation>你之後變更過它：你的修改將被取代</translation>
    </message>
    <message>
        <source>Also start a new session holding the messages before this one</source>
        <translation>同時新建一個包含此訊息之前所有訊息的會話</translation>
    </message>
    <message>
        <source>Restore files and conversation</source>
        <translation>還原檔案和對話</translation>
    </message>
    <message>
        <source>The folder is checkpointed first: you can undo the restore. Restore files keeps the conversation as it is; Restore files and conversation also starts a new session from before this message.</source>
        <translation>會先為資料夾建立檢查點：你可以復原這次還原。「還原檔案」保持對話不變；「還原檔案和對話」還會從此訊息之前開始一個新會話。</translation>
    </message>
</context>
<context>
    <name>WorktreeActions</name>
    <message>
        <source>%n file(s) in it are not committed and would be lost.</source>
        <translation>其中有 %n 個檔案未提交，將會遺失。</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>刪除</translation>
    </message>
    <message>
        <source>Delete session</source>
        <translation>刪除會話</translation>
    </message>
    <message>
        <source>Delete session and worktree</source>
        <translation>刪除會話和工作樹</translation>
    </message>
    <message>
        <source>Delete session, keep worktree</source>
        <translation>刪除會話，保留工作樹</translation>
    </message>
    <message>
        <source>Delete this conversation?</source>
        <translation>刪除此對話？</translation>
    </message>
    <message>
        <source>Its branch has %n commit(s) no other branch has: the branch is kept.</source>
        <translation>其分支有 %n 個其他分支沒有的提交：該分支將被保留。</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>新建會話</translation>
    </message>
    <message>
        <source>Nothing in it is lost by removing it.</source>
        <translation>刪除它不會遺失任何內容。</translation>
    </message>
    <message>
        <source>The worktree was removed; its branch %1 is kept (it has commits no other branch has).</source>
        <translation>工作樹已刪除；其分支 %1 被保留（它有其他分支沒有的提交）。</translation>
    </message>
    <message>
        <source>This session works in its own worktree: %1 (branch %2).</source>
        <translation>此工作階段在自己的工作樹中工作：%1（分支 %2）。</translation>
    </message>
</context>
<context>
    <name>ToolView</name>
    <message>
        <source>%1 (MCP server %2)</source>
        <translation>%1（MCP 伺服器 %2）</translation>
    </message>
</context>
<context>
    <name>McpSettingsPanel</name>
    <message>
        <source>Add</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>Allow without asking</source>
        <translation>直接允許，不再詢問</translation>
    </message>
    <message>
        <source>Another server already has this name.</source>
        <translation>已有另一個伺服器使用此名稱。</translation>
    </message>
    <message>
        <source>Approval</source>
        <translation>審核</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>參數</translation>
    </message>
    <message>
        <source>Ask (follows the permission mode)</source>
        <translation>詢問（依照權限模式）</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>指令</translation>
    </message>
    <message>
        <source>Command (stdio)</source>
        <translation>指令（stdio）</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>正在連線…</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>啟用</translation>
    </message>
    <message>
        <source>Enter the command that starts the server.</source>
        <translation>請輸入啟動伺服器的指令。</translation>
    </message>
    <message>
        <source>Enter the server's http:// or https:// URL.</source>
        <translation>請輸入伺服器的 http:// 或 https:// 網址。</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>環境變數</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失敗：%1</translation>
    </message>
    <message>
        <source>Give the server a name.</source>
        <translation>請為伺服器命名。</translation>
    </message>
    <message>
        <source>Headers</source>
        <translation>標頭</translation>
    </message>
    <message>
        <source>MCP servers are available once Cherry has started.</source>
        <translation>Cherry 啟動完成後即可使用 MCP 伺服器。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名稱</translation>
    </message>
    <message>
        <source>Never run</source>
        <translation>永不執行</translation>
    </message>
    <message>
        <source>No system keyring is available to keep the values.</source>
        <translation>沒有可用的系統鑰匙圈來儲存這些值。</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>已關閉</translation>
    </message>
    <message>
        <source>On</source>
        <translation>開啟</translation>
    </message>
    <message>
        <source>Ready: %1 tools</source>
        <translation>就緒：%1 個工具</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>SSE</source>
        <translation>SSE</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>儲存</translation>
    </message>
    <message>
        <source>Streamable HTTP</source>
        <translation>Streamable HTTP</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>測試連線</translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation>正在測試…</translation>
    </message>
    <message>
        <source>The test connected: %1 tools</source>
        <translation>測試連線成功：%1 個工具</translation>
    </message>
    <message>
        <source>The test failed: %1</source>
        <translation>測試失敗：%1</translation>
    </message>
    <message>
        <source>This server cannot be saved: %1</source>
        <translation>無法儲存此伺服器：%1</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Tools ask</source>
        <translation>工具審核</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>類型</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>網址</translation>
    </message>
    <message>
        <source>Values are kept in the system keyring. A stored value is not shown: leave it empty to keep it.</source>
        <translation>這些值儲存在系統鑰匙圈中。已儲存的值不會顯示：留空即保留原值。</translation>
    </message>
    <message>
        <source>Working folder</source>
        <translation>工作資料夾</translation>
    </message>
</context>
<context>
    <name>ArtifactsCard</name>
    <message>
        <source>Deliverables (%1)</source>
        <translation>交付檔案（%1）</translation>
    </message>
</context>
<context>
    <name>SkillsSettingsPanel</name>
    <message>
        <source>A skill with this name is already there.</source>
        <translation>已有同名的技能。</translation>
    </message>
    <message>
        <source>Choose a skill folder</source>
        <translation>選擇技能資料夾</translation>
    </message>
    <message>
        <source>Choose a skill zip</source>
        <translation>選擇技能 zip 檔</translation>
    </message>
    <message>
        <source>Import folder…</source>
        <translation>匯入資料夾…</translation>
    </message>
    <message>
        <source>Import zip…</source>
        <translation>匯入 zip…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Skills an agent can use once you enable them in its dialog. A skill is a folder with a SKILL.md.</source>
        <translation>在智慧體對話框中啟用後，智慧體即可使用這些技能。技能是一個包含 SKILL.md 的資料夾。</translation>
    </message>
    <message>
        <source>The skill cannot be imported: %1</source>
        <translation>無法匯入技能：%1</translation>
    </message>
    <message>
        <source>The skill's name may hold only letters, digits, '.', '_' and '-'.</source>
        <translation>技能名稱只能包含字母、數字、「.」、「_」和「-」。</translation>
    </message>
    <message>
        <source>The zip holds a path outside its folder or a link: not imported.</source>
        <translation>此 zip 含有指向其資料夾之外的路徑或連結：未匯入。</translation>
    </message>
    <message>
        <source>The zip is too large.</source>
        <translation>此 zip 太大。</translation>
    </message>
    <message>
        <source>There is no SKILL.md in it.</source>
        <translation>其中沒有 SKILL.md。</translation>
    </message>
    <message>
        <source>This is not a zip file.</source>
        <translation>這不是 zip 檔。</translation>
    </message>
    <message>
        <source>Zip files (*.zip)</source>
        <translation>Zip 檔 (*.zip)</translation>
    </message>
</context>
<context>
    <name>VersionSwitcher</name>
    <message>
        <source>Previous version</source>
        <translation>上一個版本</translation>
    </message>
    <message>
        <source>Next version</source>
        <translation>下一個版本</translation>
    </message>
    <message>
        <source>Version %1 of %2</source>
        <translation>第 %1 個版本，共 %2 個</translation>
    </message>
</context>
<context>
    <name>StartGuide</name>
    <message>
        <source>This session talks to Cherry's offline demo agent: no account, no network.

Try a task that uses a tool, for example: “Write a short note about pelicans into my workspace”. The agent streams its answer slowly, then asks before it runs its Write tool: Allow or Deny.

While it is still writing, type another message and press Ctrl+Enter to steer it, or press Stop to end the turn.</source>
        <translation>這個工作階段連接 Cherry 的離線示範智慧體：無需帳號，無需連網。

試試一個會用到工具的任務，例如：「在我的工作區寫一篇關於鵜鶘的短筆記」。智慧體會慢慢地串流輸出回答，然後在執行 Write 工具前詢問你：允許或拒絕。

在它還在寫的時候，輸入另一則訊息並按 Ctrl+Enter 來引導它，或按「停止」結束這一輪。</translation>
    </message>
</context>
<context>
    <name>AgentActions</name>
    <message>
        <source>Untitled agent</source>
        <translation>未命名智慧體</translation>
    </message>
    <message>
        <source>Delete agent</source>
        <translation>刪除智慧體</translation>
    </message>
    <message>
        <source>Delete the agent “%1”?</source>
        <translation>刪除智慧體「%1」？</translation>
    </message>
    <message numerus="yes">
        <source>Its %n session(s) and their messages are deleted with it; this cannot be undone.</source>
        <translation>
            <numerusform>它的 %n 個工作階段及其訊息將一併刪除，且無法復原。</numerusform>
        </translation>
    </message>
    <message>
        <source>It has no sessions.</source>
        <translation>它沒有工作階段。</translation>
    </message>
    <message numerus="yes">
        <source>%n session(s) of it are running now: they are stopped first.</source>
        <translation>
            <numerusform>其中 %n 個工作階段正在執行：會先停止。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n session(s) work in their own git worktree: the worktree folders stay on disk.</source>
        <translation>
            <numerusform>%n 個工作階段在各自的 git 工作樹中工作：工作樹資料夾會保留在磁碟上。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RowTime</name>
    <message>
        <source>Yesterday %1</source>
        <translation>昨天 %1</translation>
    </message>
</context>
<context>
    <name>ComposerCompletion</name>
    <message>
        <source>Listing files…</source>
        <translation>正在列出檔案…</translation>
    </message>
</context>
<context>
    <name>NewTopicBar</name>
    <message>
        <source>+ New chat</source>
        <translation>+ 新建對話</translation>
    </message>
    <message>
        <source>+ New session</source>
        <translation>+ 新建會話</translation>
    </message>
    <message>
        <source>A new chat with a model (Ctrl+N)</source>
        <translation>與模型開始新對話（Ctrl+N）</translation>
    </message>
    <message>
        <source>A new session of the agent you are looking at</source>
        <translation>為目前檢視的智慧體新建會話</translation>
    </message>
</context>
<context>
    <name>Attention</name>
    <message>
        <source>Waiting for your approval</source>
        <translation>等待你的批准</translation>
    </message>
    <message>
        <source>Replying…</source>
        <translation>正在回覆…</translation>
    </message>
    <message>
        <source>Reply ready</source>
        <translation>回覆已完成</translation>
    </message>
    <message>
        <source>Untitled conversation</source>
        <translation>未命名對話</translation>
    </message>
    <message>
        <source>Cherry Desktop</source>
        <translation>Cherry Desktop</translation>
    </message>
    <message numerus="yes">
        <source>(%n) Waiting for you — Cherry Desktop</source>
        <translation>
            <numerusform>（%n）等你處理 — Cherry Desktop</numerusform>
        </translation>
    </message>
    <message>
        <source>Waiting for your approval to go on.</source>
        <translation>需要你批准後才能繼續。</translation>
    </message>
    <message>
        <source>The reply is ready.</source>
        <translation>回覆已完成。</translation>
    </message>
</context>
<context>
    <name>TrayMenu</name>
    <message>
        <source>Open “%1” — %2</source>
        <translation>開啟「%1」— %2</translation>
    </message>
    <message>
        <source>No conversation is running</source>
        <translation>沒有正在進行的對話</translation>
    </message>
    <message>
        <source>Open window</source>
        <translation>開啟視窗</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>結束</translation>
    </message>
</context>
<context>
    <name>CloseQuestion</name>
    <message>
        <source>an hour</source>
        <translation>1 小時</translation>
    </message>
    <message>
        <source>%1 hours</source>
        <translation>%1 小時</translation>
    </message>
    <message>
        <source>a minute</source>
        <translation>1 分鐘</translation>
    </message>
    <message>
        <source>%1 minutes</source>
        <translation>%1 分鐘</translation>
    </message>
    <message>
        <source>%1 seconds</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>Close the last window?</source>
        <translation>關閉最後一個視窗？</translation>
    </message>
    <message>
        <source>Waiting for your approval:</source>
        <translation>等待你批准：</translation>
    </message>
    <message>
        <source>In the background they wait for you to open a window again; after %1 they stop, keeping what they wrote so far.</source>
        <translation>在背景，它們會等你再次開啟視窗；%1後停止，已寫出的內容會保留。</translation>
    </message>
    <message>
        <source>In the background they wait until you open a window again.</source>
        <translation>在背景，它們會一直等到你再次開啟視窗。</translation>
    </message>
    <message>
        <source>Keep running in the background</source>
        <translation>在背景繼續執行</translation>
    </message>
    <message>
        <source>Stop them and quit</source>
        <translation>停止它們並結束</translation>
    </message>
</context>
</TS>
