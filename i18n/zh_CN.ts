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
        <source>Providers…</source>
        <translation>服务商…</translation>
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
        <source>No model fits this runtime yet: add an Anthropic provider, or mark an Anthropic-compatible one, in Providers.</source>
        <translation>还没有适用于此运行时的模型：请在“服务商”中添加 Anthropic 服务商，或将某个服务商标记为兼容 Anthropic。</translation>
    </message>
    <message>
        <source>No API key is stored for %1: %2 signs in with your own %2 login.</source>
        <translation>%1 没有保存 API 密钥：%2 将使用你自己的 %2 登录。</translation>
    </message>
    <message>
        <source>No API key is stored for %1, and %2 needs one: add it in Providers.</source>
        <translation>%1 没有保存 API 密钥，而 %2 需要密钥：请在“服务商”中添加。</translation>
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
    <message>
        <source>%1 reaches this model through Cherry's API gateway (Settings, API gateway).</source>
        <translation>%1 通过 Cherry 的 API 网关访问此模型（设置 › API 网关）。</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <source>Skills</source>
        <translation>技能</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>智能体</translation>
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
        <translation>读取文件</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.Glob</source>
        <translation>按模式查找文件</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.Grep</source>
        <translation>搜索文件内容</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.LS</source>
        <translation>列出文件夹</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.Write</source>
        <translation>写入文件</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.Edit</source>
        <translation>编辑文件</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.MultiEdit</source>
        <translation>多处编辑文件</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.NotebookEdit</source>
        <translation>编辑笔记本</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.Bash</source>
        <translation>运行 shell 命令</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.BashOutput</source>
        <translation>读取 shell 输出</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.KillShell</source>
        <translation>停止 shell</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.WebFetch</source>
        <translation>获取网页</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.WebSearch</source>
        <translation>搜索网络</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.Task</source>
        <translation>运行子智能体</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.TodoWrite</source>
        <translation>维护待办列表</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.ExitPlanMode</source>
        <translation>退出计划模式</translation>
    </message>
    <message>
        <source>agent.runtime.pi</source>
        <translation>pi</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.read</source>
        <translation>读取文件</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.grep</source>
        <translation>搜索文件内容</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.find</source>
        <translation>查找文件</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.ls</source>
        <translation>列出文件夹</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.edit</source>
        <translation>编辑文件</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.write</source>
        <translation>写入文件</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.bash</source>
        <translation>运行 shell 命令</translation>
    </message>
    <message>
        <source>agent.runtime.acp</source>
        <translation>ACP 智能体</translation>
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
    <message>
        <source>Always allow %1 in this session</source>
        <translation>本会话中始终允许 %1</translation>
    </message>
    <message>
        <source>Approve plan</source>
        <translation>批准计划</translation>
    </message>
    <message>
        <source>Keep planning</source>
        <translation>继续规划</translation>
    </message>
    <message>
        <source>The agent's plan is ready</source>
        <translation>智能体的计划已就绪</translation>
    </message>
    <message>
        <source>Read it above. Approve it and the agent starts working, or keep planning and tell it what to change.</source>
        <translation>请阅读上方的计划。批准后智能体开始工作；或继续规划，并告诉它需要修改什么。</translation>
    </message>
    <message>
        <source>Deny with a reason (optional): tell the agent what to do instead</source>
        <translation>拒绝理由（可选）：告诉智能体改做什么</translation>
    </message>
    <message>
        <source>%1 moves here, then Enter allows and Esc denies</source>
        <translation>%1 移到此处，然后 Enter 允许、Esc 拒绝</translation>
    </message>
    <message>
        <source>What should change in the plan? (optional)</source>
        <translation>计划需要修改什么？（可选）</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>允许</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>拒绝</translation>
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
        <translation>服务商…</translation>
    </message>
    <message>
        <source>Add providers, models and API keys</source>
        <translation>添加服务商、模型和 API 密钥</translation>
    </message>
    <message>
        <source>Open Providers…</source>
        <translation>打开服务商…</translation>
    </message>
    <message>
        <source>Choose a model…</source>
        <translation>选择模型…</translation>
    </message>
    <message>
        <source>%1 (unavailable)</source>
        <translation>%1（不可用）</translation>
    </message>
    <message>
        <source>No models: add a provider first</source>
        <translation>没有模型：请先添加服务商</translation>
    </message>
    <message>
        <source>Ask several models at once; their answers show side by side</source>
        <translation>同时询问多个模型，回答并排显示</translation>
    </message>
    <message>
        <source>Ask only this chat's model</source>
        <translation>只询问此对话的模型</translation>
    </message>
    <message>
        <source>+ %1</source>
        <translation>+ %1</translation>
    </message>
    <message>
        <source>Compare with…</source>
        <translation>对比…</translation>
    </message>
    <message>
        <source>%1 (needs an API key)</source>
        <translation>%1（需要 API 密钥）</translation>
    </message>
    <message>
        <source>Add the key of %1 in Providers to ask this model</source>
        <translation>在“服务商”中添加 %1 的密钥即可询问此模型</translation>
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
        <source>Providers and API keys…</source>
        <translation>服务商和 API 密钥…</translation>
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
        <source>Open or create a chat to write a message</source>
        <translation>打开或新建一个对话后即可输入消息</translation>
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
    <message>
        <source>%1 is allowed without asking for the rest of this session</source>
        <translation>本会话剩余时间内 %1 无需再询问即可运行</translation>
    </message>
    <message>
        <source>Export to Markdown…</source>
        <translation>导出为 Markdown…</translation>
    </message>
    <message>
        <source>That message is on another branch of this chat</source>
        <translation>该消息位于此聊天的另一个分支上</translation>
    </message>
    <message>
        <source>Back up…</source>
        <translation>备份…</translation>
    </message>
    <message>
        <source>Restore…</source>
        <translation>恢复…</translation>
    </message>
    <message>
        <source>Show sidebar</source>
        <translation>显示侧边栏</translation>
    </message>
    <message>
        <source>Show or hide the sidebar (%1)</source>
        <translation>显示或隐藏侧边栏（%1）</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <source>Attach images or text files (or paste / drop them here)</source>
        <translation>附加图片或文本文件（也可粘贴或拖放到这里）</translation>
    </message>
    <message>
        <source>Attach…</source>
        <translation>附件…</translation>
    </message>
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
    <message>
        <source>Editing a sent message: Enter sends it again, Esc cancels.</source>
        <translation>正在编辑已发送的消息：Enter 重新发送，Esc 取消。</translation>
    </message>
    <message>
        <source>Replying… Enter queues the next turn, Esc stops.</source>
        <translation>正在回复… Enter 排队为下一轮，Esc 停止。</translation>
    </message>
</context>
<context>
    <name>EmptyState</name>
    <message>
        <source>Nothing is open</source>
        <translation>尚未打开任何内容</translation>
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
        <source>Providers and API keys…</source>
        <translation>服务商和 API 密钥…</translation>
    </message>
    <message>
        <source>Chats answer with a model of one of your providers: add an API key in Providers, or use a local server such as Ollama. Claude Code agents work in a folder you choose and can use your own Claude Code login.

To try everything offline, without an account, start the app with cherry-desktop --demo</source>
        <translation>对话使用你的某个服务商的模型作答：请在“服务商”中添加 API 密钥，或使用 Ollama 等本地服务。Claude Code 智能体在你选择的文件夹中工作，并可使用你自己的 Claude Code 登录。

想在没有账号的情况下离线体验全部功能，请用以下命令启动应用：cherry-desktop --demo</translation>
    </message>
    <message>
        <source>Open a chat or an agent session from the list on the left, or start something new.</source>
        <translation>从左侧列表打开一个对话或智能体会话，或新建一个。</translation>
    </message>
    <message>
        <source>Welcome to Cherry Desktop</source>
        <translation>欢迎使用 Cherry Desktop</translation>
    </message>
    <message>
        <source>Create a chat to talk with a model, or an agent to let Claude Code work in a folder of yours.</source>
        <translation>新建对话与模型交流，或新建智能体，让 Claude Code 在你的文件夹中工作。</translation>
    </message>
    <message>
        <source>This is Cherry's offline demo: no account, no network. Open the demo agent's session on the left to watch an agent run a tool, approve it, and steer it while it works; or start a new chat, which the demo model answers.</source>
        <translation>这是 Cherry 的离线演示：无需账号，无需联网。打开左侧演示智能体的会话，观看智能体运行工具、批准它，并在它工作时引导它；或新建一个聊天，由演示模型回答。</translation>
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
    <name>IssueWords</name>
    <message>
        <source>No usable keyring backend was found, so API keys cannot be stored. On Linux install and unlock a Secret Service provider (GNOME Keyring or KWallet), or `pip install keyrings.alt` for a file-based keyring; then restart Cherry Desktop.</source>
        <translation>未找到可用的密钥环后端，因此无法保存 API 密钥。在 Linux 上请安装并解锁 Secret Service 提供程序（GNOME Keyring 或 KWallet），或执行 `pip install keyrings.alt` 使用基于文件的密钥环；然后重启 Cherry Desktop。</translation>
    </message>
    <message>
        <source>This chat has no model yet. Choose one in the Model list above.</source>
        <translation>此对话还没有模型。请在上方的“模型”列表中选择一个。</translation>
    </message>
    <message>
        <source>%1 is turned off. Turn it on in Providers, or choose another model.</source>
        <translation>%1 已关闭。请在“服务商”中启用它，或选择其他模型。</translation>
    </message>
    <message>
        <source>%1 needs an API key. Add it in Providers, then send again.</source>
        <translation>%1 需要 API 密钥。请在“服务商”中添加，然后重新发送。</translation>
    </message>
    <message>
        <source>%1 needs an API key, but no key can be stored on this system.</source>
        <translation>%1 需要 API 密钥，但此系统无法保存密钥。</translation>
    </message>
    <message>
        <source>The model of this chat is no longer available. Choose another one.</source>
        <translation>此对话的模型已不可用。请选择其他模型。</translation>
    </message>
    <message>
        <source>A model this chat also asked is no longer available and is not asked any more. Choose others with “Compare with…”.</source>
        <translation>此对话同时询问的一个模型已不可用，不会再询问它。请通过“对比…”选择其他模型。</translation>
    </message>
    <message>
        <source>The agent's new settings could not be applied to the running session, so it was paused. Queued messages wait until you resume them.</source>
        <translation>智能体的新设置无法应用到正在运行的会话，因此会话已暂停。排队的消息会等待你恢复。</translation>
    </message>
    <message>
        <source>The next queued message could not be started. It stays queued; resume it when ready.</source>
        <translation>下一条排队消息无法开始。它仍在队列中；准备好后请恢复。</translation>
    </message>
    <message>
        <source>Queued messages are on hold: this session cannot run (%1).</source>
        <translation>排队的消息已暂停：此会话无法运行（%1）。</translation>
    </message>
    <message>
        <source>%1 is not asked: %2 has no API key or is turned off. Add the key in Providers, or uncheck the model in “Compare with…”; the other models answer.</source>
        <translation>未询问 %1：%2 没有 API 密钥或已关闭。请在“服务商”中添加密钥，或在“对比…”中取消勾选该模型；其他模型照常回答。</translation>
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
        <source>cut short</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>The agent process ended before finishing; this answer is incomplete.</source>
        <translation>智能体进程在完成前结束；此回答不完整。</translation>
    </message>
    <message>
        <source>This answer is incomplete.</source>
        <translation>此回答不完整。</translation>
    </message>
    <message>
        <source>The agent could not resume the earlier conversation and started a new one: it does not remember the messages above.</source>
        <translation>智能体无法恢复之前的对话，已开始新的对话：它不记得上面的消息。</translation>
    </message>
    <message>
        <source>Part of this message could not be read.</source>
        <translation>此消息的部分内容无法读取。</translation>
    </message>
    <message>
        <source>Forked from another session before one of its messages: these messages were copied, and the agent gets them as context with your next message.</source>
        <translation>从另一个会话的某条消息之前分叉而来：这些消息是复制的，智能体会在你的下一条消息中获得它们作为上下文。</translation>
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
    <message>
        <source>↓ Jump to latest</source>
        <translation>↓ 跳到最新</translation>
    </message>
    <message>
        <source>Scroll to the newest message (Ctrl+End)</source>
        <translation>滚动到最新消息（Ctrl+End）</translation>
    </message>
</context>
<context>
    <name>ProvidersDialog</name>
    <message>
        <source>Providers</source>
        <translation>服务商</translation>
    </message>
</context>
<context>
    <name>ProvidersPanel</name>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Custom (OpenAI-compatible)</source>
        <translation>自定义（兼容 OpenAI）</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>接口地址</translation>
    </message>
    <message>
        <source>Enabled (its models can be picked)</source>
        <translation>启用（可选择其模型）</translation>
    </message>
    <message>
        <source>Also serves the Anthropic Messages API (usable by Claude Code)</source>
        <translation>同时提供 Anthropic Messages API（可供 Claude Code 使用）</translation>
    </message>
    <message>
        <source>Save key</source>
        <translation>保存密钥</translation>
    </message>
    <message>
        <source>Remove key</source>
        <translation>移除密钥</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
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
        <translation>添加模型</translation>
    </message>
    <message>
        <source>Remove model</source>
        <translation>移除模型</translation>
    </message>
    <message>
        <source>OpenAI-compatible</source>
        <translation>兼容 OpenAI</translation>
    </message>
    <message>
        <source>%1 (off)</source>
        <translation>%1（已关闭）</translation>
    </message>
    <message>
        <source>New provider</source>
        <translation>新服务商</translation>
    </message>
    <message>
        <source>Delete provider</source>
        <translation>删除服务商</translation>
    </message>
    <message>
        <source>Delete %1 with its models and API key?</source>
        <translation>删除 %1 及其模型和 API 密钥吗？</translation>
    </message>
    <message>
        <source>Keys cannot be stored until a keyring is available (see above).</source>
        <translation>在密钥环可用之前无法保存密钥（见上方说明）。</translation>
    </message>
    <message>
        <source>A key is stored in the system keyring.</source>
        <translation>已有密钥保存在系统密钥环中。</translation>
    </message>
    <message>
        <source>No key needed for a server on this computer.</source>
        <translation>本机上的服务无需密钥。</translation>
    </message>
    <message>
        <source>No key stored. Chats need one; Claude Code agents use your own Claude Code login.</source>
        <translation>未保存密钥。对话需要密钥；Claude Code 智能体会使用你自己的 Claude Code 登录。</translation>
    </message>
    <message>
        <source>No key stored.</source>
        <translation>未保存密钥。</translation>
    </message>
    <message>
        <source>Replace the stored key</source>
        <translation>替换已保存的密钥</translation>
    </message>
    <message>
        <source>Paste the API key</source>
        <translation>粘贴 API 密钥</translation>
    </message>
    <message>
        <source>Prices…</source>
        <translation>价格…</translation>
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
            <numerusform>排队等待下一轮（%n）</numerusform>
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
    <message>
        <source>New session in its own worktree</source>
        <translation>在独立工作树中新建会话</translation>
    </message>
    <message>
        <source>Delete agent…</source>
        <translation>删除智能体…</translation>
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
        <translation>设置</translation>
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
    <message>
        <source>General</source>
        <translation>常规</translation>
    </message>
    <message>
        <source>Providers</source>
        <translation>服务商</translation>
    </message>
    <message>
        <source>API gateway</source>
        <translation>API 网关</translation>
    </message>
    <message>
        <source>Stop replying when all windows are closed</source>
        <translation>关闭所有窗口后停止回复</translation>
    </message>
    <message>
        <source>Backups</source>
        <translation>备份</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <source>Skills</source>
        <translation>技能</translation>
    </message>
    <message>
        <source>Stop after %1 minutes, keeping the reply so far</source>
        <translation>%1 分钟后停止，保留已有回复</translation>
    </message>
    <message>
        <source>Stop after an hour, keeping the reply so far</source>
        <translation>1 小时后停止，保留已有回复</translation>
    </message>
    <message>
        <source>Stop after %1 hours, keeping the reply so far</source>
        <translation>%1 小时后停止，保留已有回复</translation>
    </message>
    <message>
        <source>Stop after %1 seconds, keeping the reply so far</source>
        <translation>%1 秒后停止，保留已有回复</translation>
    </message>
    <message>
        <source>Wait until I answer</source>
        <translation>一直等我答复</translation>
    </message>
    <message>
        <source>Approval with no window open</source>
        <translation>没有打开窗口时的批准</translation>
    </message>
    <message>
        <source>Notify me when a reply is ready while I look elsewhere</source>
        <translation>我在看别处时，回复完成后通知我</translation>
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
    <message>
        <source>not run</source>
        <translation>未运行</translation>
    </message>
    <message>
        <source>Not run: the turn ended before it was answered</source>
        <translation>未运行：本轮在获得批准前已结束</translation>
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
    <message>
        <source>The API gateway could not start. See Settings, API gateway.</source>
        <translation>API 网关无法启动。请查看“设置 › API 网关”。</translation>
    </message>
    <message>
        <source>The API gateway is on. Send your message again.</source>
        <translation>API 网关已开启。请重新发送消息。</translation>
    </message>
</context>
<context>
    <name>UsageFooter</name>
    <message>
        <source>%1 in · %2 out tokens</source>
        <translation>输入 %1 · 输出 %2 token</translation>
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
        <translation>%1 缓存读取</translation>
    </message>
</context>
<context>
    <name>StorageFaultText</name>
    <message>
        <source>Cherry Desktop cannot use its data</source>
        <translation>Cherry Desktop 无法使用其数据</translation>
    </message>
    <message>
        <source>the data folder</source>
        <translation>数据文件夹</translation>
    </message>
    <message>
        <source>%1 cannot be written (a read-only folder or disk, or missing permissions). Make it writable, then start again.</source>
        <translation>%1 无法写入（只读的文件夹或磁盘，或缺少权限）。请使其可写，然后重新启动。</translation>
    </message>
    <message>
        <source>The disk holding %1 is full. Free some space, then start again.</source>
        <translation>存放 %1 的磁盘已满。请释放一些空间，然后重新启动。</translation>
    </message>
    <message>
        <source>The database %1 is damaged. It was left as it is: restore it from a backup, or move it away to start with an empty one.</source>
        <translation>数据库 %1 已损坏。它保持原样未动：请从备份恢复，或将其移走以使用空数据库启动。</translation>
    </message>
    <message>
        <source>%1 is not a Cherry Desktop database (it is truncated or another kind of file). It was left as it is: move it away or restore it from a backup.</source>
        <translation>%1 不是 Cherry Desktop 数据库（文件被截断或是其他类型的文件）。它保持原样未动：请将其移走或从备份恢复。</translation>
    </message>
    <message>
        <source>The database %1 was written by a newer Cherry Desktop. Update the app to open it; it was left as it is.</source>
        <translation>数据库 %1 由更新版本的 Cherry Desktop 写入。请更新应用后再打开；它保持原样未动。</translation>
    </message>
    <message>
        <source>%1 cannot be opened. Check that it exists and that you may read and write it.</source>
        <translation>%1 无法打开。请检查它是否存在，以及你是否有读写权限。</translation>
    </message>
</context>
<context>
    <name>CodeBlock</name>
    <message>
        <source>code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the code</source>
        <translation>复制代码</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
</context>
<context>
    <name>FoldingText</name>
    <message>
        <source>Show all %1 lines</source>
        <translation>显示全部 %1 行</translation>
    </message>
    <message>
        <source>Show less</source>
        <translation>收起</translation>
    </message>
</context>
<context>
    <name>MessageActions</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy as Markdown (%1)</source>
        <translation>复制为 Markdown（%1）</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <source>Edit and send again (%1 in an empty message box)</source>
        <translation>编辑并重新发送（在空输入框中按 %1）</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <source>Another answer (%1)</source>
        <translation>换一个回答（%1）</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete this message (you can undo it)</source>
        <translation>删除这条消息（可撤销）</translation>
    </message>
    <message>
        <source>Copy as Markdown</source>
        <translation>复制为 Markdown</translation>
    </message>
    <message>
        <source>Edit and resend</source>
        <translation>编辑并重新发送</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>更改</translation>
    </message>
    <message>
        <source>Restore files</source>
        <translation>恢复文件</translation>
    </message>
    <message>
        <source>Restore files to before this message</source>
        <translation>将文件恢复到此消息之前</translation>
    </message>
    <message>
        <source>Restore files to before this message (shows what changes first)</source>
        <translation>将文件恢复到此消息之前（先显示将更改的内容）</translation>
    </message>
    <message>
        <source>The files this turn added, modified or deleted</source>
        <translation>本轮新增、修改或删除的文件</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
    <message>
        <source>Select all</source>
        <translation>全选</translation>
    </message>
</context>
<context>
    <name>UndoBar</name>
    <message>
        <source>Message deleted</source>
        <translation>消息已删除</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
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
        <translation>对话</translation>
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
        <source>steer</source>
        <translation>引导</translation>
    </message>
    <message>
        <source>Export to Markdown</source>
        <translation>导出为 Markdown</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown（*.md）</translation>
    </message>
    <message>
        <source>Could not export: %1</source>
        <translation>无法导出：%1</translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation>已导出到 %1</translation>
    </message>
</context>
<context>
    <name>SearchPanel</name>
    <message>
        <source>Search chats and sessions (Ctrl+K)</source>
        <translation>搜索聊天和会话 (Ctrl+K)</translation>
    </message>
    <message>
        <source>No results</source>
        <translation>没有结果</translation>
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
        <translation>首次使用，正在安装 %1 %2（约 15 秒）…</translation>
    </message>
    <message>
        <source>Still always allowed: %1</source>
        <translation>仍始终允许：%1</translation>
    </message>
    <message>
        <source>Permission mode of this agent, applied to the running session</source>
        <translation>此智能体的权限模式，会应用到正在运行的会话</translation>
    </message>
    <message>
        <source>Agent: %1</source>
        <translation>智能体：%1</translation>
    </message>
    <message>
        <source>Untitled agent</source>
        <translation>未命名智能体</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation>模型：%1</translation>
    </message>
    <message>
        <source>the agent's default</source>
        <translation>智能体默认模型</translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation>打开 %1</translation>
    </message>
    <message>
        <source>Context %1%</source>
        <translation>上下文 %1%</translation>
    </message>
    <message>
        <source>%1 of %2 tokens of context used</source>
        <translation>已使用上下文 %1 / %2 个 token</translation>
    </message>
    <message>
        <source>Now: %1</source>
        <translation>当前：%1</translation>
    </message>
    <message>
        <source>Applies from the next turn</source>
        <translation>从下一轮开始生效</translation>
    </message>
    <message>
        <source>The running session refused the change; it applies from the next turn</source>
        <translation>正在运行的会话拒绝了此更改；将从下一轮开始生效</translation>
    </message>
    <message>
        <source>Todos %1/%2</source>
        <translation>待办 %1/%2</translation>
    </message>
    <message>
        <source>Changes: %n file(s)</source>
        <translation>更改：%n 个文件</translation>
    </message>
    <message>
        <source>Files changed in this session's folder since its first turn</source>
        <translation>自第一轮以来此会话文件夹中更改的文件</translation>
    </message>
    <message>
        <source>Put back the files as they were before the last restore</source>
        <translation>将文件放回上次恢复之前的状态</translation>
    </message>
    <message>
        <source>Undo restore</source>
        <translation>撤销恢复</translation>
    </message>
    <message>
        <source>Branch: %1</source>
        <translation>分支：%1</translation>
    </message>
    <message>
        <source>This session works in its own git worktree. Merge back with: %1</source>
        <translation>此会话在自己的 git 工作树中工作。合并回去的命令：%1</translation>
    </message>
    <message>
        <source>No checkpoints: %1</source>
        <translation>没有检查点：%1</translation>
    </message>
</context>
<context>
    <name>ModelPricingDialog</name>
    <message>
        <source>Cache reads</source>
        <translation>缓存读取</translation>
    </message>
    <message>
        <source>Cache writes</source>
        <translation>缓存写入</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Prices of %1</source>
        <translation>%1 的价格</translation>
    </message>
    <message>
        <source>USD per million tokens</source>
        <translation>每百万 token 的美元价格</translation>
    </message>
</context>
<context>
    <name>UsageSummary</name>
    <message>
        <source>%1 cache reads</source>
        <translation>%1 缓存读取</translation>
    </message>
    <message>
        <source>Total: %1 in · %2 out tokens</source>
        <translation>合计：输入 %1 · 输出 %2 token</translation>
    </message>
    <message>
        <source>no prices for some models</source>
        <translation>部分模型没有价格</translation>
    </message>
    <message>
        <source>no price set for its model</source>
        <translation>其模型未设置价格</translation>
    </message>
    <message>
        <source>Prices are set per model: Providers ▸ Prices…</source>
        <translation>价格按模型设置：服务商 ▸ 价格…</translation>
    </message>
</context>
<context>
    <name>CompactionDivider</name>
    <message>
        <source>— Compacting the context failed: %1 —</source>
        <translation>— 压缩上下文失败：%1 —</translation>
    </message>
    <message>
        <source>— Compacting the conversation's context… —</source>
        <translation>— 正在压缩对话上下文… —</translation>
    </message>
    <message>
        <source>— Earlier messages were compacted into a summary to free context —</source>
        <translation>— 较早的消息已压缩为摘要以释放上下文 —</translation>
    </message>
    <message>
        <source>— The context was full: %1 tokens of earlier messages were compacted into a summary —</source>
        <translation>— 上下文已满：较早的 %1 个 token 的消息已压缩为摘要 —</translation>
    </message>
    <message>
        <source>— As asked, %1 tokens of earlier messages were compacted into a summary —</source>
        <translation>— 按你的要求，较早的 %1 个 token 的消息已压缩为摘要 —</translation>
    </message>
    <message>
        <source>— %1 tokens of earlier messages were compacted into a summary to free context —</source>
        <translation>— 较早的 %1 个 token 的消息已压缩为摘要，以腾出上下文 —</translation>
    </message>
</context>
<context>
    <name>PlanCard</name>
    <message>
        <source>Plan</source>
        <translation>计划</translation>
    </message>
</context>
<context>
    <name>TodoCard</name>
    <message>
        <source>Todo list · %1 of %2 done</source>
        <translation>待办清单 · 已完成 %1/%2</translation>
    </message>
</context>
<context>
    <name>Translate</name>
    <message>
        <source>Choose a model for this chat (or a naming model in Settings) to translate.</source>
        <translation>请为此聊天选择一个模型（或在设置中选择命名模型）后再翻译。</translation>
    </message>
    <message>
        <source>English</source>
        <translation>英语</translation>
    </message>
    <message>
        <source>This message has no text to translate.</source>
        <translation>此消息没有可翻译的文本。</translation>
    </message>
    <message>
        <source>This message is already being translated.</source>
        <translation>此消息正在翻译中。</translation>
    </message>
    <message>
        <source>Translate to</source>
        <translation>翻译为</translation>
    </message>
</context>
<context>
    <name>TranslationBlock</name>
    <message>
        <source>Translating to %1…</source>
        <translation>正在翻译为%1…</translation>
    </message>
    <message>
        <source>Translation (%1)</source>
        <translation>译文（%1）</translation>
    </message>
    <message>
        <source>Translation to %1 failed</source>
        <translation>翻译为%1失败</translation>
    </message>
    <message>
        <source>Translation to %1 stopped</source>
        <translation>翻译为%1已停止</translation>
    </message>
</context>
<context>
    <name>AttachmentButton</name>
    <message>
        <source>%1 (missing)</source>
        <translation>%1（已丢失）</translation>
    </message>
</context>
<context>
    <name>AttachmentTray</name>
    <message>
        <source>Attach files</source>
        <translation>添加附件</translation>
    </message>
    <message>
        <source>Images and text files (*.png *.jpg *.jpeg *.webp *.gif *.txt *.md *.json *.csv *.py *.log);;All files (*)</source>
        <translation>图片和文本文件 (*.png *.jpg *.jpeg *.webp *.gif *.txt *.md *.json *.csv *.py *.log);;所有文件 (*)</translation>
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
        <translation>关闭</translation>
    </message>
    <message>
        <source>Open with the system app</source>
        <translation>用系统应用打开</translation>
    </message>
</context>
<context>
    <name>AttachmentWords</name>
    <message>
        <source>%1 cannot be attached: only PNG, JPEG, WebP and GIF images and text files can.</source>
        <translation>无法附加 %1：只能附加 PNG、JPEG、WebP、GIF 图片和文本文件。</translation>
    </message>
    <message>
        <source>%1 could not be attached.</source>
        <translation>无法附加 %1。</translation>
    </message>
    <message>
        <source>%1 could not be read.</source>
        <translation>无法读取 %1。</translation>
    </message>
    <message>
        <source>%1 could not be saved with the message (is the disk full?). Nothing was sent.</source>
        <translation>无法随消息保存 %1（磁盘已满？）。消息未发送。</translation>
    </message>
    <message>
        <source>%1 is empty.</source>
        <translation>%1 是空文件。</translation>
    </message>
    <message>
        <source>%1 is too large to attach (the limit is %2).</source>
        <translation>%1 太大，无法附加（上限为 %2）。</translation>
    </message>
    <message>
        <source>A message can carry at most %2 files; %1 was not added.</source>
        <translation>一条消息最多附带 %2 个文件；未添加 %1。</translation>
    </message>
    <message>
        <source>Files cannot be attached in this conversation.</source>
        <translation>此对话无法附加文件。</translation>
    </message>
    <message>
        <source>The attached file %1 is no longer available.</source>
        <translation>附件 %1 已不存在。</translation>
    </message>
    <message>
        <source>The file</source>
        <translation>该文件</translation>
    </message>
</context>
<context>
    <name>AlwaysAllowedButton</name>
    <message>
        <source>Tools allowed without asking in this session; click to ask again</source>
        <translation>本会话中无需询问即可运行的工具；点击可改回每次询问</translation>
    </message>
    <message>
        <source>Always allowed: %1</source>
        <translation>始终允许：%1</translation>
    </message>
    <message numerus="yes">
        <source>Always allowed (%n)</source>
        <translation>
            <numerusform>始终允许（%n）</numerusform>
        </translation>
    </message>
    <message>
        <source>Ask again for %1</source>
        <translation>%1 改回每次询问</translation>
    </message>
    <message>
        <source>Ask again for every tool</source>
        <translation>所有工具改回每次询问</translation>
    </message>
</context>
<context>
    <name>AnswerColumn</name>
    <message>
        <source>✓ Continues from here</source>
        <translation>✓ 从这里继续</translation>
    </message>
    <message>
        <source>The next message continues the conversation from this answer</source>
        <translation>下一条消息将从此回答继续对话</translation>
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
        <translation>重新生成</translation>
    </message>
    <message>
        <source>Ask this model again (the other answers stay)</source>
        <translation>再次询问此模型（其他回答保留）</translation>
    </message>
    <message>
        <source>Use this answer</source>
        <translation>使用此回答</translation>
    </message>
    <message>
        <source>Continue the conversation from this answer</source>
        <translation>从此回答继续对话</translation>
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
        <translation>只能使用已完成的回答。请重新生成，或使用其他回答。</translation>
    </message>
    <message>
        <source>The conversation already went on from another answer of this turn.</source>
        <translation>对话已从本轮的另一个回答继续。</translation>
    </message>
    <message>
        <source>This answer cannot be used to continue the conversation.</source>
        <translation>此回答无法用于继续对话。</translation>
    </message>
</context>
<context>
    <name>ErrorWords</name>
    <message>
        <source>The model's service refused the API key. Check the key in Providers.</source>
        <translation>模型服务拒绝了 API 密钥。请在“服务商”中检查密钥。</translation>
    </message>
    <message>
        <source>The model's service is limiting requests right now. Wait a moment, then try again.</source>
        <translation>模型服务当前正在限制请求。请稍等片刻再试。</translation>
    </message>
    <message>
        <source>The model's service is overloaded. Try again in a little while.</source>
        <translation>模型服务负载过高。请稍后再试。</translation>
    </message>
    <message>
        <source>The model's service had a problem of its own. Try again later.</source>
        <translation>模型服务自身出现了问题。请稍后再试。</translation>
    </message>
    <message>
        <source>The model's service refused the request.</source>
        <translation>模型服务拒绝了此请求。</translation>
    </message>
    <message>
        <source>The model's service reported an error.</source>
        <translation>模型服务报告了一个错误。</translation>
    </message>
    <message>
        <source>The model's service could not be reached. Check the network connection and the provider's address.</source>
        <translation>无法连接到模型服务。请检查网络连接和服务商的地址。</translation>
    </message>
    <message>
        <source>The model's service took too long to answer.</source>
        <translation>模型服务响应超时。</translation>
    </message>
    <message>
        <source>The connection ended before the reply was complete.</source>
        <translation>回复尚未完成，连接就已中断。</translation>
    </message>
    <message>
        <source>The model's service sent a reply that could not be read.</source>
        <translation>模型服务返回的回复无法读取。</translation>
    </message>
    <message>
        <source>The model of this chat is no longer available. Choose another one.</source>
        <translation>此对话的模型已不可用。请选择其他模型。</translation>
    </message>
    <message>
        <source>The provider of this model is turned off. Turn it on in Providers, or choose another model.</source>
        <translation>此模型的服务商已关闭。请在“服务商”中启用它，或选择其他模型。</translation>
    </message>
    <message>
        <source>This chat has no model yet. Choose one in the Model list above.</source>
        <translation>此对话还没有模型。请在上方的“模型”列表中选择一个。</translation>
    </message>
    <message>
        <source>The agent's process ended during the turn.</source>
        <translation>智能体进程在本轮进行中结束了。</translation>
    </message>
    <message>
        <source>The agent reported an error.</source>
        <translation>智能体报告了一个错误。</translation>
    </message>
    <message>
        <source>The agent could not be started.</source>
        <translation>无法启动智能体。</translation>
    </message>
    <message>
        <source>This session cannot run: its agent, workspace or model is not usable.</source>
        <translation>此会话无法运行：它的智能体、工作区或模型不可用。</translation>
    </message>
    <message>
        <source>The session was closed during the turn.</source>
        <translation>会话在本轮进行中被关闭。</translation>
    </message>
    <message>
        <source>The queued message could not be started.</source>
        <translation>排队的消息无法开始。</translation>
    </message>
    <message>
        <source>The reply could not be saved, so the turn did not start.</source>
        <translation>无法保存回复，因此本轮没有开始。</translation>
    </message>
    <message>
        <source>The reply stopped: the model sent nothing for too long.</source>
        <translation>回复已停止：模型太久没有发送任何内容。</translation>
    </message>
    <message>
        <source>The reply could not be saved.</source>
        <translation>无法保存回复。</translation>
    </message>
    <message>
        <source>The reply was interrupted when the app stopped.</source>
        <translation>应用停止时回复被中断。</translation>
    </message>
    <message>
        <source>The turn could not continue.</source>
        <translation>本轮无法继续。</translation>
    </message>
    <message>
        <source>A backup or restore is in progress. Send again when it is done.</source>
        <translation>正在备份或恢复。完成后请重新发送。</translation>
    </message>
    <message>
        <source>This conversation no longer exists.</source>
        <translation>此对话已不存在。</translation>
    </message>
    <message>
        <source>That message no longer exists.</source>
        <translation>该消息已不存在。</translation>
    </message>
    <message>
        <source>Only a reply of the model can be regenerated.</source>
        <translation>只有模型的回复可以重新生成。</translation>
    </message>
    <message>
        <source>The message is empty.</source>
        <translation>消息为空。</translation>
    </message>
    <message>
        <source>Wait until the current reply has finished.</source>
        <translation>请等待当前回复完成。</translation>
    </message>
    <message>
        <source>The same model was asked twice.</source>
        <translation>同一个模型被请求了两次。</translation>
    </message>
    <message>
        <source>This chat cannot do that.</source>
        <translation>此对话不支持该操作。</translation>
    </message>
    <message>
        <source>The reply failed.</source>
        <translation>回复失败。</translation>
    </message>
    <message>
        <source>This agent reaches its model through Cherry's API gateway, which is off. Turn it on in Settings, API gateway, then send again.</source>
        <translation>此智能体通过 Cherry 的 API 网关访问其模型，但网关已关闭。请在“设置 › API 网关”中开启，然后重新发送。</translation>
    </message>
    <message>
        <source>Turn on the API gateway</source>
        <translation>开启 API 网关</translation>
    </message>
    <message>
        <source>This agent was restored from a backup and stays off until you allow it: Settings, Backups, Allow restored agents.</source>
        <translation>此智能体是从备份恢复的，在你允许之前保持关闭：设置 &gt; 备份 &gt; 允许恢复的智能体。</translation>
    </message>
    <message>
        <source>Two of this agent's MCP tools have the same name, so none of them can be told apart. Turn one off in Settings, MCP servers, or untick a server in the agent's dialog.</source>
        <translation>此智能体的两个 MCP 工具同名，无法区分。请在“设置 › MCP 服务器”中关闭其中一个，或在智能体对话框中取消勾选某个服务器。</translation>
    </message>
    <message>
        <source>The disk is full, so this could not be saved. Free some space, then try again; what you typed stays in the message box.</source>
        <translation>磁盘已满，无法保存。请释放一些空间后重试；您输入的内容仍保留在消息框中。</translation>
    </message>
    <message>
        <source>The data folder cannot be written (a read-only disk or missing permissions), so this could not be saved. Make it writable, then try again.</source>
        <translation>数据文件夹无法写入（磁盘为只读或缺少权限），因此无法保存。请使其可写后重试。</translation>
    </message>
</context>
<context>
    <name>GatewaySettingsPanel</name>
    <message>
        <source>Serves Cherry's models and agents as a local API (Anthropic Messages, OpenAI chat completions, agents and topics over SSE) on 127.0.0.1 only. Claude Code agents on models that are not Anthropic-compatible run through it.</source>
        <translation>以本地 API 的形式提供 Cherry 的模型和智能体（Anthropic Messages、OpenAI 聊天补全、通过 SSE 的智能体与话题），仅监听 127.0.0.1。使用非 Anthropic 兼容模型的 Claude Code 智能体通过它运行。</translation>
    </message>
    <message>
        <source>Run the API gateway</source>
        <translation>运行 API 网关</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>OpenAI SDK (Python)</source>
        <translation>OpenAI SDK（Python）</translation>
    </message>
    <message>
        <source>Example</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
    <message>
        <source>Running. Requests need the API key below.</source>
        <translation>运行中。请求需要携带下方的 API 密钥。</translation>
    </message>
    <message>
        <source>Off.</source>
        <translation>已关闭。</translation>
    </message>
    <message>
        <source>Port %1 on 127.0.0.1 is in use by another program: choose another port.</source>
        <translation>127.0.0.1 上的端口 %1 已被其他程序占用：请选择其他端口。</translation>
    </message>
    <message>
        <source>No keyring is available to keep the API key in: the gateway cannot run.</source>
        <translation>没有可用于保存 API 密钥的钥匙串：网关无法运行。</translation>
    </message>
</context>
<context>
    <name>FetchedModelsDialog</name>
    <message>
        <source>Add models</source>
        <translation>添加模型</translation>
    </message>
    <message>
        <source>Add selected</source>
        <translation>添加所选</translation>
    </message>
    <message>
        <source>Filter</source>
        <translation>筛选</translation>
    </message>
</context>
<context>
    <name>ProviderCheckRow</name>
    <message>
        <source>Asking the provider for its models…</source>
        <translation>正在向服务商获取模型列表…</translation>
    </message>
    <message>
        <source>Connected. Models the provider lists: %1.</source>
        <translation>已连接。服务商列出的模型：%1 个。</translation>
    </message>
    <message>
        <source>Connected: %1 answered.</source>
        <translation>已连接：%1 已回复。</translation>
    </message>
    <message>
        <source>Fetch models…</source>
        <translation>获取模型…</translation>
    </message>
    <message>
        <source>Models added: %1.</source>
        <translation>已添加模型：%1 个。</translation>
    </message>
    <message>
        <source>Models the provider lists: %1.</source>
        <translation>服务商列出的模型：%1 个。</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>Testing the connection…</source>
        <translation>正在测试连接…</translation>
    </message>
    <message>
        <source>This provider does not list its models: add them by id below.</source>
        <translation>此服务商不提供模型列表：请在下方按 ID 添加模型。</translation>
    </message>
</context>
<context>
    <name>BackupDialog</name>
    <message>
        <source>API keys are not in the backup: they stay in this computer's keyring. After restoring on another computer, enter them again.</source>
        <translation>备份中不包含 API 密钥：它们保存在这台电脑的钥匙串中。在另一台电脑上恢复后，请重新输入。</translation>
    </message>
    <message>
        <source>Another backup or restore is running.</source>
        <translation>另一个备份或恢复正在进行。</translation>
    </message>
    <message>
        <source>Back up</source>
        <translation>备份</translation>
    </message>
    <message>
        <source>Back up to</source>
        <translation>备份到</translation>
    </message>
    <message>
        <source>Backup written: %1 (%2).</source>
        <translation>备份已写入：%1（%2）。</translation>
    </message>
    <message>
        <source>Cancelled. Nothing was written.</source>
        <translation>已取消，未写入任何内容。</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Checking the backup…</source>
        <translation>正在检查备份…</translation>
    </message>
    <message>
        <source>Cherry Desktop backup (*.cherry-backup);;All files (*)</source>
        <translation>Cherry Desktop 备份 (*.cherry-backup);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cherry Desktop is running on this data folder.</source>
        <translation>Cherry Desktop 正在使用此数据文件夹。</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Enter the API keys again for: %1</source>
        <translation>请重新输入以下服务商的 API 密钥：%1</translation>
    </message>
    <message>
        <source>Not done</source>
        <translation>未完成</translation>
    </message>
    <message>
        <source>Pausing new writes…</source>
        <translation>正在暂停新的写入…</translation>
    </message>
    <message>
        <source>Quit now</source>
        <translation>立即退出</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Restore from</source>
        <translation>从以下文件恢复</translation>
    </message>
    <message>
        <source>Restore from a backup?</source>
        <translation>要从备份恢复吗？</translation>
    </message>
    <message>
        <source>Restore not done</source>
        <translation>恢复未完成</translation>
    </message>
    <message>
        <source>Restored</source>
        <translation>已恢复</translation>
    </message>
    <message>
        <source>Restoring %1 replaces all chats, agents and sessions with the backup's when Cherry Desktop starts again. The current data is kept aside until then.</source>
        <translation>恢复 %1 会在 Cherry Desktop 下次启动时用备份中的内容替换所有对话、智能体和会话。在此之前，当前数据会被保留。</translation>
    </message>
    <message>
        <source>Some work was still being saved and did not finish in time. Nothing was written; try again in a moment.</source>
        <translation>仍有工作在保存中，未能及时完成。未写入任何内容，请稍后重试。</translation>
    </message>
    <message>
        <source>Still running: %1</source>
        <translation>仍在运行：%1</translation>
    </message>
    <message>
        <source>Taking a snapshot of the database…</source>
        <translation>正在创建数据库快照…</translation>
    </message>
    <message>
        <source>The backup could not be put in place, so your previous data was kept.</source>
        <translation>无法应用备份，已保留你之前的数据。</translation>
    </message>
    <message>
        <source>The backup is verified and ready. Quit and start Cherry Desktop again to finish the restore; until then you keep working on the current data.</source>
        <translation>备份已校验并准备就绪。退出并重新启动 Cherry Desktop 以完成恢复；在此之前你仍在使用当前数据。</translation>
    </message>
    <message>
        <source>The disk is full. Free some space or choose another folder.</source>
        <translation>磁盘已满。请释放空间或选择其他文件夹。</translation>
    </message>
    <message>
        <source>The file or folder cannot be read.</source>
        <translation>无法读取该文件或文件夹。</translation>
    </message>
    <message>
        <source>Then enter the API keys again for: %1</source>
        <translation>然后请重新输入以下服务商的 API 密钥：%1</translation>
    </message>
    <message>
        <source>This backup is damaged and cannot be restored.</source>
        <translation>此备份已损坏，无法恢复。</translation>
    </message>
    <message>
        <source>This backup is incomplete: the file was cut short.</source>
        <translation>此备份不完整：文件被截断了。</translation>
    </message>
    <message>
        <source>This backup was made by a newer Cherry Desktop. Update the app to restore it.</source>
        <translation>此备份由更新版本的 Cherry Desktop 创建。请更新应用后再恢复。</translation>
    </message>
    <message>
        <source>This file is not a Cherry Desktop backup.</source>
        <translation>此文件不是 Cherry Desktop 备份。</translation>
    </message>
    <message>
        <source>This folder cannot be written. Choose another folder.</source>
        <translation>无法写入此文件夹。请选择其他文件夹。</translation>
    </message>
    <message>
        <source>Writing the backup…</source>
        <translation>正在写入备份…</translation>
    </message>
    <message>
        <source>Your data was restored from the backup. The replaced data is kept until the next start.</source>
        <translation>你的数据已从备份恢复。被替换的数据会保留到下次启动。</translation>
    </message>
    <message>
        <source>The restored agents stay off until you allow them in Settings, Backups: %1</source>
        <translation>恢复的智能体在你于“设置 &gt; 备份”中允许之前保持关闭：%1</translation>
    </message>
    <message>
        <source>Choose a place outside Cherry Desktop's own data: this one would overwrite it, or be backed up itself.</source>
        <translation>请选择 Cherry Desktop 自身数据之外的位置：此处会覆盖数据，或者会把备份本身也备份进去。</translation>
    </message>
</context>
<context>
    <name>BackupSettingsPanel</name>
    <message>
        <source>A folder on another disk is best</source>
        <translation>最好选择另一块磁盘上的文件夹</translation>
    </message>
    <message>
        <source>API keys are not in backups: they stay in this computer's keyring.</source>
        <translation>备份中不包含 API 密钥：它们保存在这台电脑的钥匙串中。</translation>
    </message>
    <message>
        <source>Back up automatically once a day</source>
        <translation>每天自动备份一次</translation>
    </message>
    <message>
        <source>Choose a folder for automatic backups.</source>
        <translation>请为自动备份选择一个文件夹。</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Folder for automatic backups</source>
        <translation>自动备份文件夹</translation>
    </message>
    <message>
        <source>Keep the newest</source>
        <translation>保留最新的</translation>
    </message>
    <message>
        <source>Last backup: %1</source>
        <translation>上次备份：%1</translation>
    </message>
    <message>
        <source>never</source>
        <translation>从未</translation>
    </message>
    <message>
        <source>Agents restored from a backup run commands in your workspaces, so they stay off until you allow them: %1</source>
        <translation>从备份恢复的智能体会在你的工作区中运行命令，因此在你允许之前它们保持关闭：%1</translation>
    </message>
    <message>
        <source>Allow restored agents</source>
        <translation>允许恢复的智能体</translation>
    </message>
    <message>
        <source>Allowed: %1 agent(s).</source>
        <translation>已允许：%1 个智能体。</translation>
    </message>
</context>
<context>
    <name>ChangesDialog</name>
    <message>
        <source>%n file(s) changed</source>
        <translation>已更改 %n 个文件</translation>
    </message>
    <message>
        <source>(no textual difference)</source>
        <translation>（没有文本差异）</translation>
    </message>
    <message>
        <source>No files changed.</source>
        <translation>没有文件被更改。</translation>
    </message>
    <message>
        <source>Too large to checkpoint (not shown, never restored): %1</source>
        <translation>文件过大，未建立检查点（不显示，也不会恢复）：%1</translation>
    </message>
    <message>
        <source>the turn is still running: shown against the folder now</source>
        <translation>该轮仍在运行：与文件夹当前状态比较</translation>
    </message>
    <message>
        <source>only files inside the session's folder are tracked</source>
        <translation>只跟踪会话文件夹内的文件</translation>
    </message>
</context>
<context>
    <name>CheckpointActions</name>
    <message>
        <source>Changes in this session</source>
        <translation>本会话的更改</translation>
    </message>
    <message>
        <source>Changes of this turn</source>
        <translation>本轮的更改</translation>
    </message>
    <message>
        <source>Restored %n file(s) to before the message. The conversation is unchanged.</source>
        <translation>已将 %n 个文件恢复到该消息之前。对话未改变。</translation>
    </message>
    <message>
        <source>The files are back as they were before the restore.</source>
        <translation>文件已回到恢复之前的状态。</translation>
    </message>
    <message>
        <source>Forked session</source>
        <translation>分叉的会话</translation>
    </message>
    <message>
        <source>Restored %n file(s). The conversation goes on in a new session from before the message; its agent gets the earlier messages as context.</source>
        <translation>已恢复 %n 个文件。对话从该消息之前在新会话中继续；其智能体会获得之前的消息作为上下文。</translation>
    </message>
</context>
<context>
    <name>CheckpointWords</name>
    <message>
        <source>Checkpoints need git, and no git was found on this computer.</source>
        <translation>检查点需要 git，但此电脑上未找到 git。</translation>
    </message>
    <message>
        <source>Files changed after the list was shown. Nothing was restored; look at the new list.</source>
        <translation>列表显示后文件又有更改。未恢复任何内容；请查看新的列表。</translation>
    </message>
    <message>
        <source>Nothing was restored: a file that has no checkpoint is in the way (%1).</source>
        <translation>未恢复任何内容：一个没有检查点的文件挡住了路径（%1）。</translation>
    </message>
    <message>
        <source>Something went wrong: %1</source>
        <translation>出错了：%1</translation>
    </message>
    <message>
        <source>The agent is working: stop it or wait for the turn to end, then restore.</source>
        <translation>智能体正在工作：请停止它或等待本轮结束后再恢复。</translation>
    </message>
    <message>
        <source>The checkpoint of this message is no longer kept.</source>
        <translation>此消息的检查点已不再保留。</translation>
    </message>
    <message>
        <source>The session's folder cannot be written to (read-only): %1</source>
        <translation>会话的文件夹无法写入（只读）：%1</translation>
    </message>
    <message>
        <source>The session's folder no longer exists: %1</source>
        <translation>会话的文件夹已不存在：%1</translation>
    </message>
    <message>
        <source>This folder has too many files for checkpoints (%1).</source>
        <translation>此文件夹文件过多，无法建立检查点（%1）。</translation>
    </message>
    <message>
        <source>This message has no checkpoint (it was sent before checkpoints, or its checkpoint was skipped).</source>
        <translation>此消息没有检查点（它在检查点功能之前发送，或其检查点被跳过）。</translation>
    </message>
    <message>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>binary</source>
        <translation>二进制</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>git failed; nothing was changed: %1</source>
        <translation>git 失败；未做任何更改：%1</translation>
    </message>
    <message>
        <source>git took too long; nothing was changed.</source>
        <translation>git 耗时过长；未做任何更改。</translation>
    </message>
    <message>
        <source>modified</source>
        <translation>修改</translation>
    </message>
    <message>
        <source>A session gets its own worktree only in a git repository with at least one commit: %1</source>
        <translation>只有在至少有一次提交的 git 仓库中，会话才能拥有自己的工作树：%1</translation>
    </message>
    <message>
        <source>git could not do it: %1</source>
        <translation>git 无法完成：%1</translation>
    </message>
</context>
<context>
    <name>RewindDialog</name>
    <message>
        <source>%n file(s) will be put back as they were before this message:</source>
        <translation>%n 个文件将恢复为此消息之前的状态：</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Changed by you (not by the agent) since then: %1</source>
        <translation>此后由你（而非智能体）更改：%1</translation>
    </message>
    <message>
        <source>Restore files</source>
        <translation>恢复文件</translation>
    </message>
    <message>
        <source>Restore files to before this message</source>
        <translation>将文件恢复到此消息之前</translation>
    </message>
    <message>
        <source>The folder is already as it was before this message: nothing to restore.</source>
        <translation>文件夹已是此消息之前的状态：无需恢复。</translation>
    </message>
    <message>
        <source>The folder is checkpointed first: you can undo the restore. The conversation stays as it is.</source>
        <translation>会先为文件夹建立检查点：你可以撤销恢复。对话保持不变。</translation>
    </message>
    <message>
        <source>Too large to keep a copy of, so the undo cannot bring them back: %1</source>
        <translation>文件过大无法保留副本，撤销无法找回：%1</translation>
    </message>
    <message>
        <source>you changed it since: your edit will be replaced</source>
        <translation>你之后更改过它：你的修改将被替换</translation>
    </message>
    <message>
        <source>Also start a new session holding the messages before this one</source>
        <translation>同时新建一个包含此消息之前所有消息的会话</translation>
    </message>
    <message>
        <source>Restore files and conversation</source>
        <translation>恢复文件和对话</translation>
    </message>
    <message>
        <source>The folder is checkpointed first: you can undo the restore. Restore files keeps the conversation as it is; Restore files and conversation also starts a new session from before this message.</source>
        <translation>会先为文件夹建立检查点：你可以撤销恢复。“恢复文件”保持对话不变；“恢复文件和对话”还会从此消息之前开始一个新会话。</translation>
    </message>
</context>
<context>
    <name>WorktreeActions</name>
    <message>
        <source>%n file(s) in it are not committed and would be lost.</source>
        <translation>其中有 %n 个文件未提交，将会丢失。</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete session</source>
        <translation>删除会话</translation>
    </message>
    <message>
        <source>Delete session and worktree</source>
        <translation>删除会话和工作树</translation>
    </message>
    <message>
        <source>Delete session, keep worktree</source>
        <translation>删除会话，保留工作树</translation>
    </message>
    <message>
        <source>Delete this conversation?</source>
        <translation>删除此对话？</translation>
    </message>
    <message>
        <source>Its branch has %n commit(s) no other branch has: the branch is kept.</source>
        <translation>其分支有 %n 个其他分支没有的提交：该分支将被保留。</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>新建会话</translation>
    </message>
    <message>
        <source>Nothing in it is lost by removing it.</source>
        <translation>删除它不会丢失任何内容。</translation>
    </message>
    <message>
        <source>The worktree was removed; its branch %1 is kept (it has commits no other branch has).</source>
        <translation>工作树已删除；其分支 %1 被保留（它有其他分支没有的提交）。</translation>
    </message>
    <message>
        <source>This session works in its own worktree: %1 (branch %2).</source>
        <translation>此会话在自己的工作树中工作：%1（分支 %2）。</translation>
    </message>
</context>
<context>
    <name>ToolView</name>
    <message>
        <source>%1 (MCP server %2)</source>
        <translation>%1（MCP 服务器 %2）</translation>
    </message>
</context>
<context>
    <name>McpSettingsPanel</name>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Allow without asking</source>
        <translation>直接允许，不再询问</translation>
    </message>
    <message>
        <source>Another server already has this name.</source>
        <translation>已有另一个服务器使用此名称。</translation>
    </message>
    <message>
        <source>Approval</source>
        <translation>审批</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Ask (follows the permission mode)</source>
        <translation>询问（遵循权限模式）</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Command (stdio)</source>
        <translation>命令（stdio）</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>启用</translation>
    </message>
    <message>
        <source>Enter the command that starts the server.</source>
        <translation>请输入启动服务器的命令。</translation>
    </message>
    <message>
        <source>Enter the server's http:// or https:// URL.</source>
        <translation>请输入服务器的 http:// 或 https:// 地址。</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>Give the server a name.</source>
        <translation>请为服务器命名。</translation>
    </message>
    <message>
        <source>Headers</source>
        <translation>请求头</translation>
    </message>
    <message>
        <source>MCP servers are available once Cherry has started.</source>
        <translation>Cherry 启动完成后即可使用 MCP 服务器。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Never run</source>
        <translation>从不运行</translation>
    </message>
    <message>
        <source>No system keyring is available to keep the values.</source>
        <translation>没有可用的系统钥匙串来保存这些值。</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>已关闭</translation>
    </message>
    <message>
        <source>On</source>
        <translation>开启</translation>
    </message>
    <message>
        <source>Ready: %1 tools</source>
        <translation>就绪：%1 个工具</translation>
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
        <translation>保存</translation>
    </message>
    <message>
        <source>Streamable HTTP</source>
        <translation>Streamable HTTP</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation>正在测试…</translation>
    </message>
    <message>
        <source>The test connected: %1 tools</source>
        <translation>测试连接成功：%1 个工具</translation>
    </message>
    <message>
        <source>The test failed: %1</source>
        <translation>测试失败：%1</translation>
    </message>
    <message>
        <source>This server cannot be saved: %1</source>
        <translation>无法保存此服务器：%1</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Tools ask</source>
        <translation>工具审批</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>Values are kept in the system keyring. A stored value is not shown: leave it empty to keep it.</source>
        <translation>这些值保存在系统钥匙串中。已保存的值不会显示：留空即保留原值。</translation>
    </message>
    <message>
        <source>Working folder</source>
        <translation>工作目录</translation>
    </message>
</context>
<context>
    <name>ArtifactsCard</name>
    <message>
        <source>Deliverables (%1)</source>
        <translation>交付文件（%1）</translation>
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
        <translation>选择技能文件夹</translation>
    </message>
    <message>
        <source>Choose a skill zip</source>
        <translation>选择技能 zip 文件</translation>
    </message>
    <message>
        <source>Import folder…</source>
        <translation>导入文件夹…</translation>
    </message>
    <message>
        <source>Import zip…</source>
        <translation>导入 zip…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Skills an agent can use once you enable them in its dialog. A skill is a folder with a SKILL.md.</source>
        <translation>在智能体对话框中启用后，智能体即可使用这些技能。技能是一个包含 SKILL.md 的文件夹。</translation>
    </message>
    <message>
        <source>The skill cannot be imported: %1</source>
        <translation>无法导入技能：%1</translation>
    </message>
    <message>
        <source>The skill's name may hold only letters, digits, '.', '_' and '-'.</source>
        <translation>技能名称只能包含字母、数字、“.”、“_”和“-”。</translation>
    </message>
    <message>
        <source>The zip holds a path outside its folder or a link: not imported.</source>
        <translation>该 zip 含有指向其文件夹之外的路径或链接：未导入。</translation>
    </message>
    <message>
        <source>The zip is too large.</source>
        <translation>该 zip 太大。</translation>
    </message>
    <message>
        <source>There is no SKILL.md in it.</source>
        <translation>其中没有 SKILL.md。</translation>
    </message>
    <message>
        <source>This is not a zip file.</source>
        <translation>这不是 zip 文件。</translation>
    </message>
    <message>
        <source>Zip files (*.zip)</source>
        <translation>Zip 文件 (*.zip)</translation>
    </message>
</context>
<context>
    <name>VersionSwitcher</name>
    <message>
        <source>Previous version</source>
        <translation>上一个版本</translation>
    </message>
    <message>
        <source>Next version</source>
        <translation>下一个版本</translation>
    </message>
    <message>
        <source>Version %1 of %2</source>
        <translation>第 %1 个版本，共 %2 个</translation>
    </message>
</context>
<context>
    <name>StartGuide</name>
    <message>
        <source>This session talks to Cherry's offline demo agent: no account, no network.

Try a task that uses a tool, for example: “Write a short note about pelicans into my workspace”. The agent streams its answer slowly, then asks before it runs its Write tool: Allow or Deny.

While it is still writing, type another message and press Ctrl+Enter to steer it, or press Stop to end the turn.</source>
        <translation>这个会话连接 Cherry 的离线演示智能体：无需账号，无需联网。

试试一个会用到工具的任务，例如：“在我的工作区写一篇关于鹈鹕的短笔记”。智能体会慢慢地流式输出回答，然后在运行 Write 工具前询问你：允许或拒绝。

在它还在写的时候，输入另一条消息并按 Ctrl+Enter 来引导它，或按“停止”结束这一轮。</translation>
    </message>
</context>
<context>
    <name>AgentActions</name>
    <message>
        <source>Untitled agent</source>
        <translation>未命名智能体</translation>
    </message>
    <message>
        <source>Delete agent</source>
        <translation>删除智能体</translation>
    </message>
    <message>
        <source>Delete the agent “%1”?</source>
        <translation>删除智能体“%1”？</translation>
    </message>
    <message numerus="yes">
        <source>Its %n session(s) and their messages are deleted with it; this cannot be undone.</source>
        <translation>
            <numerusform>它的 %n 个会话及其消息将一并删除，且无法撤销。</numerusform>
        </translation>
    </message>
    <message>
        <source>It has no sessions.</source>
        <translation>它没有会话。</translation>
    </message>
    <message numerus="yes">
        <source>%n session(s) of it are running now: they are stopped first.</source>
        <translation>
            <numerusform>其中 %n 个会话正在运行：会先停止。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n session(s) work in their own git worktree: the worktree folders stay on disk.</source>
        <translation>
            <numerusform>%n 个会话在各自的 git 工作树中工作：工作树文件夹会保留在磁盘上。</numerusform>
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
        <translation>正在列出文件…</translation>
    </message>
</context>
<context>
    <name>NewTopicBar</name>
    <message>
        <source>+ New chat</source>
        <translation>+ 新建对话</translation>
    </message>
    <message>
        <source>+ New session</source>
        <translation>+ 新建会话</translation>
    </message>
    <message>
        <source>A new chat with a model (Ctrl+N)</source>
        <translation>与模型开始新对话（Ctrl+N）</translation>
    </message>
    <message>
        <source>A new session of the agent you are looking at</source>
        <translation>为当前查看的智能体新建会话</translation>
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
        <translation>正在回复…</translation>
    </message>
    <message>
        <source>Reply ready</source>
        <translation>回复已完成</translation>
    </message>
    <message>
        <source>Untitled conversation</source>
        <translation>未命名对话</translation>
    </message>
    <message>
        <source>Cherry Desktop</source>
        <translation>Cherry Desktop</translation>
    </message>
    <message numerus="yes">
        <source>(%n) Waiting for you — Cherry Desktop</source>
        <translation>
            <numerusform>（%n）等你处理 — Cherry Desktop</numerusform>
        </translation>
    </message>
    <message>
        <source>Waiting for your approval to go on.</source>
        <translation>需要你批准后才能继续。</translation>
    </message>
    <message>
        <source>The reply is ready.</source>
        <translation>回复已完成。</translation>
    </message>
</context>
<context>
    <name>TrayMenu</name>
    <message>
        <source>Open “%1” — %2</source>
        <translation>打开“%1” — %2</translation>
    </message>
    <message>
        <source>No conversation is running</source>
        <translation>没有正在进行的对话</translation>
    </message>
    <message>
        <source>Open window</source>
        <translation>打开窗口</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
</context>
<context>
    <name>CloseQuestion</name>
    <message>
        <source>an hour</source>
        <translation>1 小时</translation>
    </message>
    <message>
        <source>%1 hours</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>a minute</source>
        <translation>1 分钟</translation>
    </message>
    <message>
        <source>%1 minutes</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 seconds</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>Close the last window?</source>
        <translation>关闭最后一个窗口？</translation>
    </message>
    <message>
        <source>Waiting for your approval:</source>
        <translation>等待你批准：</translation>
    </message>
    <message>
        <source>In the background they wait for you to open a window again; after %1 they stop, keeping what they wrote so far.</source>
        <translation>在后台，它们会等你再次打开窗口；%1后停止，已写出的内容会保留。</translation>
    </message>
    <message>
        <source>In the background they wait until you open a window again.</source>
        <translation>在后台，它们会一直等到你再次打开窗口。</translation>
    </message>
    <message>
        <source>Keep running in the background</source>
        <translation>在后台继续运行</translation>
    </message>
    <message>
        <source>Stop them and quit</source>
        <translation>停止它们并退出</translation>
    </message>
</context>
</TS>
