package e2e

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// clickText clicks the first element matching sel whose text is text.
func clickText(sel, text string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		var ok bool
		js := fmt.Sprintf(`(() => { const el = [...document.querySelectorAll(%q)].find(e => e.textContent.trim() === %q); if (!el) return false; el.click(); return true; })()`, sel, text)
		if err := chromedp.Evaluate(js, &ok).Do(ctx); err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("no %s with text %q", sel, text)
		}
		return nil
	})
}

// pressTab presses the Tab key.
func pressTab() chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		if err := input.DispatchKeyEvent(input.KeyDown).WithKey("Tab").WithCode("Tab").WithWindowsVirtualKeyCode(9).Do(ctx); err != nil {
			return err
		}
		return input.DispatchKeyEvent(input.KeyUp).WithKey("Tab").WithCode("Tab").WithWindowsVirtualKeyCode(9).Do(ctx)
	})
}
