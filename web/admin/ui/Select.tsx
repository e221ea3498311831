import { Select } from 'radix-ui';
import { Check, ChevronDown } from 'lucide-react';
import { cn } from '../../common/ui/cn';

export interface SelectOption {
  value: string;
  label: string;
}

export interface SimpleSelectProps {
  id?: string;
  value: string;
  onValueChange: (value: string) => void;
  options: SelectOption[];
  placeholder?: string;
  disabled?: boolean;
  className?: string;
  'aria-label'?: string;
}

/**
 * A Radix select with a flat option list. Radix forbids '' as an item value, so callers use a
 * sentinel such as 'all' or 'none' for "nothing chosen".
 */
export function SimpleSelect({ id, value, onValueChange, options, placeholder, disabled, className, ...aria }: SimpleSelectProps) {
  return (
    <Select.Root value={value} onValueChange={onValueChange} disabled={disabled}>
      <Select.Trigger
        id={id}
        aria-label={aria['aria-label']}
        className={cn(
          'flex h-10 w-full min-w-0 items-center justify-between gap-2 rounded-md border border-border bg-surface-2 px-3 text-left text-sm',
          'focus:border-focus focus:outline-none disabled:opacity-50 data-[placeholder]:text-muted',
          className,
        )}
      >
        <span className="min-w-0 truncate">
          <Select.Value placeholder={placeholder} />
        </span>
        <Select.Icon>
          <ChevronDown className="size-4 opacity-60" aria-hidden />
        </Select.Icon>
      </Select.Trigger>
      <Select.Portal>
        <Select.Content
          position="popper"
          sideOffset={4}
          className="z-[60] max-h-72 min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-md border border-border bg-surface-2 shadow-xl"
        >
          <Select.Viewport className="p-1">
            {options.map((option) => (
              <Select.Item
                key={option.value}
                value={option.value}
                className="relative flex cursor-pointer select-none items-center rounded px-8 py-2 text-sm outline-none data-[highlighted]:bg-primary data-[highlighted]:text-white"
              >
                <Select.ItemIndicator className="absolute left-2">
                  <Check className="size-4" aria-hidden />
                </Select.ItemIndicator>
                <Select.ItemText>{option.label}</Select.ItemText>
              </Select.Item>
            ))}
          </Select.Viewport>
        </Select.Content>
      </Select.Portal>
    </Select.Root>
  );
}
