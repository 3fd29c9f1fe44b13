<?xml version='1.0' encoding='utf-8'?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AgentDialog</name>
    <message>
        <source>Edit agent</source>
        <translation>编辑智能体</translation>
    </message>
    <message>
        <source>New agent</source>
        <translation>新建智能体</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Runtime</source>
        <translation>运行时</translation>
    </message>
    <message>
        <source>Permissions</source>
        <translation>权限</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Workspace</source>
        <translation>工作区</translation>
    </message>
    <message>
        <source>Optional system prompt</source>
        <translation>可选的系统提示词</translation>
    </message>
    <message>
        <source>Instructions</source>
        <translation>指令</translation>
    </message>
    <message>
        <source>Ask before edits and commands</source>
        <translation>编辑和执行命令前询问</translation>
    </message>
    <message>
        <source>Accept file edits, ask before commands</source>
        <translation>自动接受文件编辑，执行命令前询问</translation>
    </message>
    <message>
        <source>Plan only (no changes)</source>
        <translation>仅规划（不做修改）</translation>
    </message>
    <message>
        <source>Never ask (trusted workspace)</source>
        <translation>从不询问（受信任的工作区）</translation>
    </message>
    <message>
        <source>Choose a workspace folder</source>
        <translation>选择工作区文件夹</translation>
    </message>
    <message>
        <source>Give the agent a name.</source>
        <translation>请为智能体命名。</translation>
    </message>
    <message>
        <source>No agent runtime is available.</source>
        <translation>没有可用的智能体运行时。</translation>
    </message>
    <message>
        <source>The workspace folder does not exist.</source>
        <translation>工作区文件夹不存在。</translation>
    </message>
</context>
<context>
    <name>ApprovalCard</name>
    <message>
        <source>Deny (Esc)</source>
        <translation>拒绝 (Esc)</translation>
    </message>
    <message>
        <source>Allow (Enter)</source>
        <translation>允许 (Enter)</translation>
    </message>
    <message>
        <source>Allow the agent to run %1?</source>
        <translation>允许智能体运行 %1 吗？</translation>
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
        <translation>在新窗口中打开</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>新建对话</translation>
    </message>
    <message>
        <source>New agent…</source>
        <translation>新建智能体…</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <source>Close window</source>
        <translation>关闭窗口</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>Queued for the next turn</source>
        <translation>已加入队列，下一轮发送</translation>
    </message>
    <message>
        <source>Steered into the running turn</source>
        <translation>已插入当前回合</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>新建会话</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete this conversation?</source>
        <translation>删除此对话？</translation>
    </message>
    <message>
        <source>This part of the app is not available yet (%1).</source>
        <translation>应用的这部分暂不可用（%1）。</translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <source>Message (Enter to send, Shift+Enter for a new line)</source>
        <translation>输入消息（Enter 发送，Shift+Enter 换行）</translation>
    </message>
    <message>
        <source>Steer now</source>
        <translation>立即引导</translation>
    </message>
    <message>
        <source>Inject into the running turn (Ctrl+Enter)</source>
        <translation>插入正在进行的回合 (Ctrl+Enter)</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>排队</translation>
    </message>
    <message>
        <source>Send as the next turn (Enter)</source>
        <translation>作为下一轮发送 (Enter)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the reply (Esc)</source>
        <translation>停止回复 (Esc)</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Send (Enter)</source>
        <translation>发送 (Enter)</translation>
    </message>
    <message>
        <source>Replying… Ctrl+Enter steers, Enter queues, Esc stops.</source>
        <translation>正在回复… Ctrl+Enter 引导，Enter 排队，Esc 停止。</translation>
    </message>
</context>
<context>
    <name>ErrorBlock</name>
    <message>
        <source>The reply failed: %1</source>
        <translation>回复失败：%1</translation>
    </message>
</context>
<context>
    <name>MessageRow</name>
    <message>
        <source>You (steer)</source>
        <translation>你（引导）</translation>
    </message>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
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
        <translation>失败</translation>
    </message>
    <message>
        <source>Part of this message could not be read.</source>
        <translation>此消息的部分内容无法读取。</translation>
    </message>
</context>
<context>
    <name>MessageView</name>
    <message>
        <source>No messages yet. Say hello!</source>
        <translation>还没有消息，打个招呼吧！</translation>
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
        <translation>恢复队列</translation>
    </message>
    <message>
        <source>The queue is paused after a stop or an error.</source>
        <translation>因停止或出错，队列已暂停。</translation>
    </message>
    <message numerus="yes">
        <source>Queued for the next turn (%n)</source>
        <translation>
            <numerusform>排队等待下一轮（%n）</numerusform></translation>
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
        <translation>编辑</translation>
    </message>
    <message>
        <source>Edit this message</source>
        <translation>编辑此消息</translation>
    </message>
    <message>
        <source>Steer now</source>
        <translation>立即引导</translation>
    </message>
    <message>
        <source>Inject into the running turn</source>
        <translation>插入正在进行的回合</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Edit queued message</source>
        <translation>编辑排队消息</translation>
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
        <translation>推理过程</translation>
    </message>
</context>
<context>
    <name>SessionList</name>
    <message>
        <source>Agents</source>
        <translation>智能体</translation>
    </message>
    <message>
        <source>Untitled agent</source>
        <translation>未命名智能体</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>新建会话</translation>
    </message>
    <message>
        <source>Chats</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>新建对话</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Open in new window</source>
        <translation>在新窗口中打开</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Edit agent…</source>
        <translation>编辑智能体…</translation>
    </message>
    <message>
        <source>New agent…</source>
        <translation>新建智能体…</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>stored</source>
        <translation>已保存</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>API key: %1</source>
        <translation>API 密钥：%1</translation>
    </message>
    <message>
        <source>Follow system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Keep replying when all windows are closed</source>
        <translation>关闭所有窗口后继续回复</translation>
    </message>
    <message>
        <source>Stop replies nobody is watching</source>
        <translation>无人查看时停止回复</translation>
    </message>
    <message>
        <source>Background</source>
        <translation>后台</translation>
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
        <translation>正在启动…</translation>
    </message>
</context>
<context>
    <name>StatusBadge</name>
    <message>
        <source>Replying…</source>
        <translation>回复中…</translation>
    </message>
    <message>
        <source>Approval</source>
        <translation>待批准</translation>
    </message>
    <message>
        <source>Waiting for your approval</source>
        <translation>等待你的批准</translation>
    </message>
    <message>
        <source>The last reply failed</source>
        <translation>上一次回复失败</translation>
    </message>
    <message>
        <source>New reply</source>
        <translation>新回复</translation>
    </message>
</context>
<context>
    <name>ToolCard</name>
    <message>
        <source>preparing</source>
        <translation>准备中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>waiting for approval</source>
        <translation>等待批准</translation>
    </message>
    <message>
        <source>approved</source>
        <translation>已批准</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>Denied by the user</source>
        <translation>已被用户拒绝</translation>
    </message>
</context>
<context>
    <name>UiController</name>
    <message>
        <source>Open window</source>
        <translation>打开窗口</translation>
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
        <translation>回复已完成。</translation>
    </message>
    <message>
        <source>Hi! What can you do in this workspace?</source>
        <translation>你好！你能在这个工作区里做什么？</translation>
    </message>
</context>
<context>
    <name>UsageFooter</name>
    <message>
        <source>%1 in · %2 out tokens</source>
        <translation>输入 %1 · 输出 %2 词元</translation>
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
