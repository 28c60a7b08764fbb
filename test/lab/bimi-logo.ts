/** An SVG logo that follows the SVG Tiny PS profile BIMI asks for (a title, tiny-ps, no script, no external reference). */
export const TINY_PS_LOGO =
  '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 100 100"><title>Lab Brand</title><circle cx="50" cy="50" r="40" fill="#e33"/><use xlink:href="#c"/></svg>';
