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
        <translation>在新窗口中打開</translation>
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
        <source>Settings…</source>
        <translation>設置…</translation>
    </message>
    <message>
        <source>Close window</source>
        <translation>關閉窗口</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
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
</context>
<context>
    <name>Composer</name>
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
</context>
<context>
    <name>ErrorBlock</name>
    <message>
        <source>The reply failed: %1</source>
        <translation>回覆失敗：%1</translation>
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
        <source>Part of this message could not be read.</source>
        <translation>此消息的部分內容無法讀取。</translation>
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
            <numerusform>排隊等待下一輪（%n）</numerusform></translation>
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
        <translation>在新窗口中打開</translation>
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
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>設置</translation>
    </message>
    <message>
        <source>stored</source>
        <translation>已保存</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>未設置</translation>
    </message>
    <message>
        <source>API key: %1</source>
        <translation>API 密鑰：%1</translation>
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
        <translation>關閉所有窗口後繼續回覆</translation>
    </message>
    <message>
        <source>Stop replies nobody is watching</source>
        <translation>無人查看時停止回覆</translation>
    </message>
    <message>
        <source>Background</source>
        <translation>後台</translation>
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
</context>
<context>
    <name>UiController</name>
    <message>
        <source>Open window</source>
        <translation>打開窗口</translation>
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
</context>
<context>
    <name>UsageFooter</name>
    <message>
        <source>%1 in · %2 out tokens</source>
        <translation>輸入 %1 · 輸出 %2 個詞元</translation>
    </message>
    <message>
        <source>first token %1 s</source>
        <translation>首字 %1 秒</translation>
    </message>
    <message>
        <source>%1 s total</source>
        <translation>共 %1 秒</translation>
    </message>
</context>
</TS>
