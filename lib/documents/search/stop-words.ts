// Words that carry no topic: common English function words (with the fragments contractions leave behind),
// Chinese particles, and words that ask for a document as a whole ("summarize", "pdf", 总结, 文档), which Qwen-Agent
// also ignores so that "summarize this paper" falls back to the document's beginning.
const ENGLISH = `a about above after again against ain all am an and any are aren aren't as at be because been before
being below between both but by can couldn couldn't d did didn didn't do does doesn doesn't doing don don't down during
each few for from further had hadn hadn't has hasn hasn't have haven haven't having he her here hers herself him himself
his how i if in into is isn isn't it it's its itself just ll m ma me mightn mightn't more most mustn mustn't my myself
needn needn't no nor not now o of off on once only or other our ours ourselves out over own re s same shan shan't she
she's should should've shouldn shouldn't so some such t than that that'll the their theirs them themselves then there
these they this those through to too under until up ve very was wasn wasn't we were weren weren't what when where which
while who whom why will with won won't wouldn wouldn't y you you'd you'll you're you've your yours yourself yourselves`;

const DOCUMENT_WORDS = 'summarize summary article paper pdf';

const CHINESE = `的 吗 是 了 啊 呢 怎么 如何 什么 讲了 描述 讲 总结 总结下 总结一下 文档 文章 文稿 稿子 论文 这个 这篇 这 我 帮我 那个 下 翻译
说说 讲讲 介绍`;

export const STOP_WORDS: ReadonlySet<string> = new Set(
  [ENGLISH, DOCUMENT_WORDS, CHINESE].flatMap((list) => list.split(/\s+/)).filter(Boolean),
);
