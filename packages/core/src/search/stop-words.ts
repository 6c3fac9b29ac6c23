/**
 * Words no tool is told apart by: English function words (Snowball's English list, less the particles that
 * do tell tools apart: "up", "down", "on", "off", "in", "out", "all", "before", "after"…) and the chatter of
 * a request ("can you", "I'd like", "please help me"). A request's chatter is rare in tool descriptions, so
 * BM25 would weigh it as a rare, telling word; dropping it keeps one stray "curious" from choosing the tool.
 * Fixed before any tuning, from the lists and from what requests are made of, not from a benchmark's misses.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about am an and any are as at be because been being both but by can could did do does doing
  during each for from further had has have having he her here hers herself him himself his how i if into is
  it its itself just me my myself nor of once or other ought our ours ourselves own she should so some such
  than that the their theirs them themselves then there these they this those through to too until very was
  we were what when where which while who whom why will with would you your yours yourself yourselves
  s t d ll m re ve
  also hello hey hi kindly let lets like love need needs please really thank thanks want wants wanted wish
  wondering curious interested help tell know given use used using via e g eg etc`
    .split(/\s+/)
    .filter((word) => word !== ''),
);
