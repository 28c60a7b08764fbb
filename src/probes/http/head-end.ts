/** Reading a page only up to the end of its head (open-graph-checker's body mode 'head'). */
import { Parser } from 'htmlparser2';

/**
 * A stopWhen predicate for the fetcher: true once the bytes seen so far contain the end
 * of the head (</head> or <body>). Tags are ASCII in every encoding a page can declare
 * in a meta tag, so the bytes are tokenised as Latin-1; comments and scripts are
 * tokenised properly, so a "<body>" inside them does not stop the read.
 */
export function createHeadEndDetector(): (chunk: Buffer) => boolean {
  let ended = false;
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'body') ended = true;
      },
      onclosetag(name) {
        if (name === 'head') ended = true;
      },
    },
    { decodeEntities: false },
  );
  return (chunk) => {
    if (!ended) parser.write(chunk.toString('latin1'));
    return ended;
  };
}
