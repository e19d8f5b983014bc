// The tiny models' `tokenizer.chat_template`: ChatML as the Qwen instruct models write it, with tools in the system
// turn, calls as <tool_call> JSON blocks and results as <tool_response> blocks in a user turn, so node-llama-cpp's
// Jinja handling (including its detection of the function-call syntax) runs on the kind of template real Qwen GGUFs
// carry. Written for this project (Jinja as Hugging Face's chat templates use it).
export const CHATML_TOOLS_TEMPLATE = `{%- if tools %}
{{- '<|im_start|>system\\n' }}
{%- if messages[0].role == 'system' %}
{{- messages[0].content + '\\n\\n' }}
{%- endif %}
{{- '# Tools\\n\\nCall any of these functions when it helps you answer.\\n\\nTheir signatures, one JSON object a line, are inside <tools></tools>:\\n<tools>' }}
{%- for tool in tools %}
{{- '\\n' }}
{{- tool | tojson }}
{%- endfor %}
{{- '\\n</tools>\\n\\nTo call one, write its name and arguments as a JSON object inside <tool_call></tool_call>:\\n<tool_call>\\n{"name": <function-name>, "arguments": <arguments-object>}\\n</tool_call><|im_end|>\\n' }}
{%- elif messages[0].role == 'system' %}
{{- '<|im_start|>system\\n' + messages[0].content + '<|im_end|>\\n' }}
{%- endif %}
{%- for message in messages %}
{%- if message.role == 'user' or (message.role == 'system' and not loop.first) %}
{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' }}
{%- elif message.role == 'assistant' %}
{{- '<|im_start|>assistant' }}
{%- if message.content %}
{{- '\\n' + message.content }}
{%- endif %}
{%- if message.tool_calls %}
{%- for tool_call in message.tool_calls %}
{%- if tool_call.function %}
{%- set tool_call = tool_call.function %}
{%- endif %}
{{- '\\n<tool_call>\\n{"name": "' + tool_call.name + '", "arguments": ' }}
{{- tool_call.arguments | tojson }}
{{- '}\\n</tool_call>' }}
{%- endfor %}
{%- endif %}
{{- '<|im_end|>\\n' }}
{%- elif message.role == 'tool' %}
{%- if loop.first or messages[loop.index0 - 1].role != 'tool' %}
{{- '<|im_start|>user' }}
{%- endif %}
{{- '\\n<tool_response>\\n' + message.content + '\\n</tool_response>' }}
{%- if loop.last or messages[loop.index0 + 1].role != 'tool' %}
{{- '<|im_end|>\\n' }}
{%- endif %}
{%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
{{- '<|im_start|>assistant\\n' }}
{%- endif %}
`;
