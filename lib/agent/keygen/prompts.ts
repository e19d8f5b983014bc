// The keyword strategies' prompts. The layouts are Qwen-Agent's (worked examples as "Question: / Keywords: /
// Observation:" lines, so that generation stops at the next "Observation:"; the JSON keys keywords_zh, keywords_en,
// information and instruction); the wording is ours.
import type { Lang } from '../../llm/schema';

const KEYWORD_JSON = '{"keywords_zh": ["关键词1", "关键词2"], "keywords_en": ["keyword 1", "keyword 2"]}';

/** GenKeyword: the question's keywords, in Chinese and English. */
export function keywordPrompt(question: string, lang: Lang): string {
  if (lang === 'zh')
    return `请给出检索文档时应当使用的关键词，用来找到能回答下面问题的内容，中文和英文都要有。可以补充一些问题里没有、但意思相近的词，这样换了说法的段落也能找到。关键词要短：尽量是单个的名词、动词或形容词，不要长词组。只用 JSON 回答，格式如 ${KEYWORD_JSON}

Question: 这份报告是谁写的？
Keywords: {"keywords_zh": ["作者"], "keywords_en": ["author"]}
Observation: ...

Question: 表2说明了什么？
Keywords: {"keywords_zh": ["表二", "表 2"], "keywords_en": ["Table 2"]}
Observation: ...

Question: 关键公式
Keywords: {"keywords_zh": ["关键公式", "公式"], "keywords_en": ["key equation", "equation", "formula"]}
Observation: ...

Question: ${question}
Keywords:
`;
  return `Give the keywords a search of the documents should use to find what answers the question below, in both Chinese and English. You may add closely related words the question does not contain, so that passages saying the same thing in other words are found too. Keep keywords short: single nouns, verbs or adjectives rather than long phrases. Answer with JSON only, shaped like ${KEYWORD_JSON}

Question: Who wrote this report?
Keywords: {"keywords_zh": ["作者"], "keywords_en": ["author"]}
Observation: ...

Question: What does Table 2 show?
Keywords: {"keywords_zh": ["表二", "表 2"], "keywords_en": ["Table 2"]}
Observation: ...

Question: the key equation
Keywords: {"keywords_zh": ["关键公式", "公式"], "keywords_en": ["key equation", "equation", "formula"]}
Observation: ...

Question: ${question}
Keywords:
`;
}

/** The part of the knowledge prompt that is not the vocabulary (to know how much of it fits). */
export function knowledgeKeywordPrompt(question: string, vocabulary: string, lang: Lang): string {
  if (lang === 'zh')
    return `根据问题给出检索文档时应当使用的关键词，中文或英文，不超过 10 个。尽量从下面列出的文档词汇里挑选，使关键词和文档的用词一致；也可以补充意思相近的词。关键词要短：尽量是单个的名词、动词或形容词，不要长词组。

Begin!
<Refs> 文档的词汇：
${vocabulary}
...
Question: ${question}
Thought: 我应当从文档的词汇中挑出问题的关键词，并用 JSON 写出：${KEYWORD_JSON}
Keywords:
`;
  return `Give at most 10 keywords, in Chinese or in English, that a search of the documents should use to answer the question below. Take them from the documents' own words listed below where you can, so that they match how the documents put things; you may add closely related words. Keep keywords short: single nouns, verbs or adjectives rather than long phrases.

Begin!
<Refs> The documents' vocabulary:
${vocabulary}
...
Question: ${question}
Thought: I should pick the question's keywords from the documents' vocabulary and write them as JSON: ${KEYWORD_JSON}.
Keywords:
`;
}

/** SplitQuery: the pieces of information a search should look for, apart from what to do with them. */
export function splitQueryPrompt(question: string, lang: Lang): string {
  if (lang === 'zh')
    return `从下面的问题中找出文档检索应当查找的信息片段，以及说明要拿这些信息做什么的任务描述，用 JSON 给出：
{"information": ["信息片段1", "信息片段2"], "instruction": ["任务描述1", "任务描述2"]}。
如果问题只是提问，任务描述就是：回答问题

Question: 保修范围包括哪些？
Result: {"information": ["保修范围"], "instruction": ["回答问题"]}
Observation: ...

Question: 总结一下
Result: {"information": [], "instruction": ["总结一下"]}
Observation: ...

Question: 详细解释 3.1 训练和 3.2 评估，并和基线方法比较
Result: {"information": ["3.1 训练，3.2 评估", "基线方法"], "instruction": ["详细解释", "并和基线方法比较"]}
Observation: ...

Question: 统计各地区的销售额
Result: {"information": ["各地区的销售额"], "instruction": ["统计"]}
Observation: ...

Question: ${question}
Result:
`;
  return `From the question below, pick out the pieces of information a search of the documents should look for, and the parts that say what to do with them, and give both as JSON:
{"information": ["piece of information 1", "piece of information 2"], "instruction": ["instruction 1", "instruction 2"]}.
When the question only asks something, its instruction is: Answer the question

Question: What does the warranty cover?
Result: {"information": ["what the warranty covers"], "instruction": ["Answer the question"]}
Observation: ...

Question: Summarize
Result: {"information": [], "instruction": ["Summarize"]}
Observation: ...

Question: Explain 3.1 TRAINING and 3.2 EVALUATION in detail, and compare them with the baseline.
Result: {"information": ["3.1 TRAINING, 3.2 EVALUATION", "the baseline"], "instruction": ["Explain in detail", "compare them with the baseline"]}
Observation: ...

Question: Count the sales per region.
Result: {"information": ["the sales per region"], "instruction": ["Count"]}
Observation: ...

Question: ${question}
Result:
`;
}
