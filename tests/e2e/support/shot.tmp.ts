import { chromium } from 'playwright-core';
const base = process.argv[2]!;
const steps = process.argv.slice(3);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const page = await (await browser.newContext({ viewport: { width: Number(process.env.W ?? 1440), height: 900 } })).newPage();
page.on('pageerror', (e) => console.log('pageerror', e.message));
page.on('response', (r) => r.status() >= 400 && console.log('http', r.status(), r.url()));
for (const s of steps) {
  const [cmd, ...rest] = s.split('|');
  const arg = rest.join('|');
  if (cmd === 'goto') await page.goto(base + arg);
  else if (cmd === 'wait') await page.waitForTimeout(Number(arg));
  else if (cmd === 'shot') await page.screenshot({ path: `/tmp/shots/${arg}.png`, fullPage: true });
  else if (cmd === 'press') await page.keyboard.press(arg);
  else if (cmd === 'type') await page.keyboard.type(arg);
  else if (cmd === 'click') await page.locator(arg).first().click();
  else if (cmd === 'fill') { const [sel, val] = arg.split('=>'); await page.locator(sel!).first().fill(val!); }
  else if (cmd === 'url') console.log('url', page.url());
  else if (cmd === 'text') console.log((await page.locator(arg).first().innerText()).slice(0, 2000));
}
await browser.close();
